// Verification from the runners' real XML (fixtures/results/): every testcase of every runner
// matched to the tagged test it ran, and the statuses of references, test plans and
// requirements as docs/verification.md defines them. fixtures/results/expected/verification.json
// holds the whole answer (SPEKY_UPDATE_FIXTURES=1 rewrites it); the assertions below say
// what it must show, runner by runner.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import type { Model } from "../../src/model/model.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(repo, "fixtures/results");
const expectedFile = path.join(fixtures, "expected/verification.json");

let model: Model;

/** The verification as plain, sorted data. */
function summary(m: Model) {
  const v = m.verification!;
  const refs = [...v.references].map(([ref, r]) => ({
    id: ref.id,
    at: `${ref.file}:${ref.line}`,
    symbol: ref.symbol,
    status: r.status,
    testcases: r.testcases,
    ...(r.message === undefined ? {} : { message: r.message }),
  }));
  return {
    files: v.files.map((f) => `${f.file} ${f.testcases}`),
    testcases: {
      read: v.testcasesRead,
      matched: v.testcasesMatched,
      unmatched: v.unmatched.map((u) => `${u.file}: ${u.testcase.classname} ${u.testcase.name}`),
    },
    diagnostics: v.diagnostics,
    references: refs,
    tests: Object.fromEntries(v.tests),
    requirements: Object.fromEntries(v.requirements),
  };
}

beforeAll(async () => {
  const loaded = await loadModel([path.join(fixtures, "speky.yaml")], { cwd: repo, cache: false });
  expect(loaded.diagnostics).toEqual([]);
  model = loaded.model!;
});

// speky:speky-ts#TEST-RESULTS-RUNNERS
describe("the runners' XML", () => {
  it("matches the expected verification", () => {
    const now = summary(model);
    if (process.env.SPEKY_UPDATE_FIXTURES === "1") writeFileSync(expectedFile, `${JSON.stringify(now, null, 2)}\n`);
    expect(now).toEqual(JSON.parse(readFileSync(expectedFile, "utf8")));
  });
});
