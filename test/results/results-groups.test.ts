// Tags on the containers teams group tests in (issue 49; verification.md, "Real suites are
// tagged the way their teams group tests"), on the real runners' XML of fixtures/results:
// a tagged pytest class (a parametrized one too), PHPUnit class, RSpec describe and context,
// vitest describe and describe.each holds every testcase inside it, its status aggregating
// theirs; RSpec's "#x" and ".x" groups join their module's title without a space; a
// placeholder never reaches past vitest's ` > ` separator.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import type { Model } from "../../src/model/model.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let model: Model;

beforeAll(async () => {
  const loaded = await loadModel([path.join(repo, "fixtures/results/speky.yaml")], { cwd: repo, cache: false });
  model = loaded.model!;
});

/** Each tagged reference of a test plan: its status and how many testcases it holds. */
function runs(id: string): string[] {
  const v = model.verification!;
  return (model.codeReferencesById.get(id) ?? []).map((ref) => {
    const r = v.references.get(ref)!;
    return `${ref.symbol}: ${r.status} ${r.testcases}`;
  });
}

// speky:speky-ts#TRESULTS-CONTAINERS
describe("tagged containers", () => {
  it("a tagged class holds every test inside it (pytest, PHPUnit)", () => {
    expect(runs("GPY-CLASS")).toEqual(["TestShelfGroup: failed 3"]);
    expect(runs("GPY-PARAM-CLASS")).toEqual(["TestSizes: passed 4"]);
    expect(runs("GPHP-CLASS")).toEqual(["Shop\\Tests\\ShelfTest: failed 3"]);
    expect(model.verification!.tests.get("GPY-CLASS")).toBe("failed");
    // The untagged class's failure counts for no tagged class.
    expect(model.verification!.unmatched.map((u) => u.testcase.name)).toContain("test_fits");
  });

  it("a tagged RSpec describe and context hold their examples; '#total' and '.build' join without a space", () => {
    expect(runs("GRB-DESCRIBE")).toEqual(["Shelf: failed 5"]);
    expect(runs("GRB-CONTEXT")).toEqual(["Shelf > when empty: failed 3"]);
    expect(runs("GRB-TOTAL")).toEqual(["Shelf > #total: passed 1"]);
    expect(runs("GRB-SUMS")).toEqual(["Shelf > #total > sums: passed 1"]);
    expect(runs("GRB-BUILD")).toEqual(["Shelf > .build: passed 1"]);
  });

  it("a tagged vitest describe and describe.each hold their tests; a placeholder never crosses ' > '", () => {
    expect(runs("GVT-DESCRIBE")).toEqual(["Shelf: failed 3"]);
    expect(runs("GVT-EACH")).toEqual(["size %i: passed 2"]);
    // "Rack > holds %s" is not "Rack > holds nested > breaks" (an untagged failure).
    expect(runs("GVT-SEPARATOR")).toEqual(["Rack > holds %s: passed 1"]);
    expect(model.verification!.requirements.get("GROUPS-JS")).toBe("failing");
  });

  it("a container counts only where the runner names its file: no other runner's testcase joins it", () => {
    // RSpec's "Shelf" describe is neither ctest's Shelf.Total nor vitest's "Shelf > breaks".
    const v = model.verification!;
    const ref = model.codeReferencesById.get("GRB-DESCRIBE")![0];
    expect(v.references.get(ref)!.testcases).toBe(5);
  });
});
