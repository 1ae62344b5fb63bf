// The large project of issue 12's defect 9 (docs/security.md): requirements in files of
// 20,000, tests each validating one requirement, one requirement tagged MANY times and MANY
// loader warnings, so that every list and every item's lists run past a page.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { connectMeasured, MAX_RSS_MB, type MeasuredSession } from "./measured.js";
import { tempDir } from "./process.js";

const PER_FILE = 20_000;
/** Code references of one requirement, and loader warnings: more than a page (DEFAULT_PAGE_ITEMS). */
export const MANY = 6000;

/** Files of three loader warnings each: with tests.yaml's four (three and a count), PROBLEMS in all. */
const WARNING_FILES = 2000;
export const PROBLEMS = 4 + 3 * WARNING_FILES;

export const rid = (i: number) => `R-${String(i).padStart(6, "0")}`;

export function bigProject(requirements: number, tests: number): string {
  const dir = tempDir();
  for (let f = 0; f < requirements / PER_FILE; f++) {
    const lines = ["kind: requirements", "category: big", "requirements:"];
    for (let i = f * PER_FILE; i < Math.min((f + 1) * PER_FILE, requirements); i++) {
      lines.push(
        `  - id: ${rid(i)}`,
        `    short: Requirement number ${i}`,
        `    long: The system does thing ${i}.`,
        `    tags: [t${i % 50}]`,
      );
    }
    writeFileSync(path.join(dir, `reqs${f}.yaml`), `${lines.join("\n")}\n`);
  }
  const testLines = ["kind: tests", "category: big", "tests:"];
  for (let i = 0; i < tests; i++) {
    testLines.push(
      `  - id: T-${String(i).padStart(6, "0")}`,
      `    long: Check ${i}.`,
      `    ref: [${rid(i * 10)}]`,
      "    steps:",
      `      - action: do ${i}`,
    );
    // A loader warning per test (3 kept, then a count: the per-file cap), for get_status's problems.
    if (i < MANY) testLines.push("    owner: nobody");
  }
  writeFileSync(path.join(dir, "tests.yaml"), `${testLines.join("\n")}\n`);
  // More warnings than a page of problems: 3 in each of WARNING_FILES files (the per-file cap keeps 3).
  mkdirSync(path.join(dir, "warn"));
  const comment = `  - {about: ${rid(7)}, from: a, date: 01/01/2024, text: t, external: false, mood: x}`;
  for (let f = 0; f < WARNING_FILES; f++) {
    writeFileSync(
      path.join(dir, "warn", `w${String(f).padStart(4, "0")}.yaml`),
      `kind: comments\ncomments:\n${[comment, comment, comment].join("\n")}\n`,
    );
  }
  // One requirement tagged MANY times, for get_requirement's code references.
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src", "tags.py"), Array.from({ length: MANY }, () => `# speky:big#${rid(1)}\n`).join(""));
  writeFileSync(
    path.join(dir, "speky.yaml"),
    "kind: project\nname: big\nfiles:\n  - reqs*.yaml\n  - tests.yaml\n  - warn/*.yaml\ncode_sources:\n  - src/*.py\n",
  );
  return dir;
}

/**
 * The real server on a big project for the file's tests (hooks registered here), its peak RSS
 * checked against MAX_RSS_MB when they are done; the session once started.
 */
export function serveBigProject(requirements: number, tests: number): () => MeasuredSession {
  let session: MeasuredSession;
  beforeAll(async () => {
    session = await connectMeasured(["speky.yaml", "--no-watch", "--quiet"], bigProject(requirements, tests));
  }, 300_000);
  afterAll(async () => {
    const peakMB = await session.close();
    console.log(`speky-mcp peak RSS on ${requirements} requirements: ${Math.round(peakMB)} MB`);
    expect(peakMB).toBeLessThan(MAX_RSS_MB);
  });
  return () => session;
}
