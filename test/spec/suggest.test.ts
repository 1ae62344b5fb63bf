// Did-you-mean in every message that can have one (spec errors and warnings, code tags), with an
// edit distance that counts a swap of two neighbours as one edit and does a bounded amount of
// work whatever the repository holds; and a date hint that suggests what actually loads.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NEAR_MISS_NAMES } from "../../src/scan/near-miss.js";
import { scan } from "../../src/scan/scan.js";
import {
  editDistance,
  IdSuggester,
  MAX_ID_EDITS,
  QUERY_CELLS,
  SUGGESTER_CELLS,
  suggestId,
  suggestionWork,
  suggestName,
} from "../../src/text/suggest.js";
import { runSpeky, tempDir } from "../support/process.js";

function files(entries: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(entries)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A fixed-seed generator (mulberry32): the same IDs on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";
function longId(next: () => number, length: number): string {
  let id = "REQ-";
  while (id.length < length) id += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return id;
}
const swap = (s: string, i: number) => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);

describe("did you mean, in spec errors", () => {
  // speky:speky-ts#TSPEC-DID-YOU-MEAN
  it("suggests the closest ID for ref, prereq and about, the kind, and a field; a swap is one edit", () => {
    const dir = files({
      "reqs.yaml":
        "kind: requirements\ncategory: c\nrequirements:\n  - id: REQ-01\n    long: One.\n  - id: REQ-02\n    long: Two.\n    ref: [REQ-1]\n    refs: [REQ-01]\n",
      "tests.yaml":
        "kind: tests\ncategory: t\ntests:\n" +
        "  - id: TST-09\n    long: t\n    ref: [REQ-01]\n    steps: [{action: a}]\n" +
        "  - id: TST-10\n    long: t\n    ref: [REQ-01]\n    prereq: [TST-90]\n    steps: [{action: a}]\n",
      "comments.yaml": "kind: comments\ncomments:\n  - about: REQ-10\n    from: me\n    date: 14/03/2025\n    text: t\n",
      "more.yaml": "kind: test\ncategory: t\ntests: []\n",
    });
    const run = runSpeky(["check", "reqs.yaml", "tests.yaml", "comments.yaml", "more.yaml"], dir);
    expect(run.stdout).toBe(
      "comments.yaml:3:12: error: comment about unknown ID 'REQ-10' (no requirement or test has this ID); did you mean REQ-01?\n" +
        "more.yaml:1:7: error: unknown kind 'test' (expected requirements, tests, comments or project); did you mean 'tests'?\n" +
        "reqs.yaml:8:11: error: unknown ref 'REQ-1' (no requirement or test has this ID); did you mean REQ-01?\n" +
        "reqs.yaml:9:5: warning: requirement 'REQ-02': unknown field 'refs' (ignored); did you mean 'ref'?\n" +
        // TST-90 is one swap from TST-09 and one substitution from TST-10: the swap wins.
        "tests.yaml:11:14: error: unknown prereq 'TST-90' (no test or requirement has this ID); did you mean TST-09?\n" +
        "4 errors, 1 warning\n",
    );
    expect(run.status).toBe(1);
  });

  it("computes the optimal string alignment distance exactly within the bound (a plain table as the reference)", () => {
    const reference = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const cost = a[i - 1] === b[j - 1] ? 0 : 1;
          d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
      return d[a.length][b.length];
    };
    const next = random(2025);
    const word = () => Array.from({ length: Math.floor(next() * 9) }, () => "abc"[Math.floor(next() * 3)]).join("");
    for (let n = 0; n < 3000; n++) {
      const [a, b, max] = [word(), word(), Math.floor(next() * 5)];
      const exact = reference(a, b);
      expect(editDistance(a, b, max), `${a} ${b} ${max}`).toBe(Math.min(exact, max + 1));
      expect(editDistance(a, b)).toBe(exact);
    }
  });

  it("measures a swap as one edit, and ranks a swap before a substitution", () => {
    expect(editDistance("TST-90", "TST-09")).toBe(1);
    expect(editDistance("TST-90", "TST-10")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("ca", "abc")).toBe(3); // optimal string alignment: no edit of a swapped pair
    expect(suggestId("TST-90", ["TST-10", "TST-09"])).toBe("TST-09");
    expect(suggestId("TST-90", ["TST-10", "TST-80"])).toBe("TST-10");
    expect(suggestId("REQ-1", ["REQ-01", "ORB-1"])).toBe("REQ-01");
    expect(suggestId("req-01", ["REQ-01", "REQ-02"])).toBe("REQ-01");
    expect(suggestId("REQ-1", ["TST-1"])).toBeNull();
    expect(suggestName("Security", ["security", "performance"])).toBe("security");
    expect(suggestName("shpo", ["shop", "cart"])).toBe("shop");
    expect(suggestName("ui", ["uk"])).toBeNull();
  });
});

describe("the work of a suggestion is bounded", () => {
  // speky:speky-ts#TSUGGEST-BOUNDED
  it("compares 20,000-character IDs within the per-query bound (a full edit distance is 400 million cells a pair)", () => {
    const next = random(24_25);
    const known = Array.from({ length: 40 }, () => longId(next, 20_000));
    const suggester = new IdSuggester(known);
    const before = suggestionWork.cells;
    // One swap inside a known ID: found, and for less than the bound.
    const typo = swap(known[0], 10_000);
    expect(suggester.suggest(typo)).toBe(known[0]);
    const first = suggestionWork.cells - before;
    expect(first).toBeLessThanOrEqual(QUERY_CELLS);
    // A full table for this one pair alone would be 20,000 × 20,000 cells.
    expect(first).toBeLessThan(20_000 * 20_000);

    // Unrelated long IDs: each query stops at the cap, and all of them at the suggester's.
    let previous = suggestionWork.cells;
    for (let i = 0; i < 200; i++) {
      suggester.suggest(longId(next, 20_000));
      expect(suggestionWork.cells - previous).toBeLessThanOrEqual(QUERY_CELLS);
      previous = suggestionWork.cells;
    }
    expect(suggestionWork.cells - before).toBeLessThanOrEqual(SUGGESTER_CELLS);

    // editDistance with a bound stops past it: at most (2·max + 1) cells a character.
    const start = suggestionWork.cells;
    expect(editDistance(known[1], known[2], MAX_ID_EDITS)).toBe(MAX_ID_EDITS + 1);
    expect(suggestionWork.cells - start).toBeLessThanOrEqual((2 * MAX_ID_EDITS + 1) * 20_000);
  });

  it("compares a bounded number of unknown project names per scan (near-miss warnings)", async () => {
    // 10,000 distinct projects of 5 characters, each within reach of 'shop' by length.
    const tags = Array.from({ length: 10_000 }, (_, i) => `# speky:p${String(i).padStart(4, "0")}#X-1\n`).join("");
    const dir = files({ "many.py": tags });
    // What one comparison costs (the names are all alike).
    let one = 0;
    for (const name of ["p0000", "p5555", "p9999"]) {
      const start = suggestionWork.cells;
      suggestName(name, ["shop"], { maxEdits: 2 });
      one = Math.max(one, suggestionWork.cells - start);
    }
    expect(one).toBeGreaterThan(0);
    const before = suggestionWork.cells;
    const result = await scan([{ project: "shop", root: dir, patterns: ["*.py"] }]);
    expect(result.references).toEqual([]);
    // NEAR_MISS_NAMES comparisons at most, not one per name (10,000).
    expect(suggestionWork.cells - before).toBeLessThanOrEqual(NEAR_MISS_NAMES * one);
  });

  it("checks a spec naming 20,000-character IDs, with the suggestion", () => {
    const next = random(7);
    const ids = Array.from({ length: 30 }, () => longId(next, 20_000));
    const requirements = ids.map((id) => `  - id: ${id}\n    long: x\n`).join("");
    const refs = ids.map((id, i) => swap(id, 5_000 + i));
    const dir = files({
      "reqs.yaml": `kind: requirements\ncategory: c\nrequirements:\n${requirements}  - id: REQ-LAST\n    long: x\n    ref: [${refs.join(", ")}]\n`,
    });
    const run = runSpeky(["check", "reqs.yaml"], dir);
    expect(run.status).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[30]).toBe("30 errors, 0 warnings");
    // Long IDs are quoted and cut in the message, the suggestion too.
    expect(lines[0]).toMatch(
      /^reqs\.yaml:\d+:\d+: error: unknown ref 'REQ-.{96}…' \(20,000 characters\) \(no requirement or test has this ID\); did you mean 'REQ-.{96}…' \(20,000 characters\)\?$/,
    );
    expect(run.stdout.length).toBeLessThan(20_000);
  });
});

describe("the date hint", () => {
  // speky:speky-ts#TSPEC-DATE-HINT
  it("suggests speky's dd/mm/yyyy, and the suggestion loads, in YAML, TOML and CSV", () => {
    const dir = files({
      "reqs.yaml": "kind: requirements\ncategory: c\nrequirements:\n  - id: REQ-01\n    long: One.\n",
      "comments.yaml":
        "kind: comments\ncomments:\n  - {about: REQ-01, from: me, date: 2025-03-14, text: t}\n" +
        '  - {about: REQ-01, from: me, date: "2025-03-15", text: t}\n  - {about: REQ-01, from: me, date: 03/16/2025, text: t}\n',
      "comments.toml": 'kind = "comments"\n[[comments]]\nabout = "REQ-01"\nfrom = "me"\ndate = 2025-03-17\ntext = "t"\n',
      "comments.csv": "about,from,date,text,external\nREQ-01,me,2025-03-18,t,0\n",
    });
    const paths = ["reqs.yaml", "comments.yaml", "comments.toml", "-C", "comments.csv"];
    const run = runSpeky(["check", ...paths], dir);
    expect(run.stdout).toBe(
      "comments.csv:2:11: error: 'date' must be a date written dd/mm/yyyy, got '2025-03-18'; write it 18/03/2025\n" +
        `comments.toml:5:8: error: comment #1: 'date' must be a date written dd/mm/yyyy, got a date (2025-03-17); write it "17/03/2025"\n` +
        "comments.yaml:3:37: error: comment #1: 'date' must be a date written dd/mm/yyyy, got a date (2025-03-14); write it 14/03/2025\n" +
        "comments.yaml:4:37: error: comment #2: 'date' must be a date written dd/mm/yyyy, got '2025-03-15'; write it 15/03/2025\n" +
        "comments.yaml:5:37: error: comment #3: 'date' '03/16/2025' is not a date: there is no month 16; if it is month/day/year, write it 16/03/2025\n" +
        "5 errors, 0 warnings\n",
    );
    // Written as suggested, each loads.
    const fix = (name: string, pairs: [string, string][]) => {
      let text = readFileSync(path.join(dir, name), "utf8");
      for (const [from, to] of pairs) text = text.replace(from, to);
      writeFileSync(path.join(dir, name), text);
    };
    fix("comments.yaml", [
      ["2025-03-14", "14/03/2025"],
      ['"2025-03-15"', '"15/03/2025"'],
      ["03/16/2025", "16/03/2025"],
    ]);
    fix("comments.toml", [["2025-03-17", '"17/03/2025"']]);
    fix("comments.csv", [["2025-03-18", "18/03/2025"]]);
    const fixed = runSpeky(["check", ...paths], dir);
    expect(fixed.stdout).toBe("0 errors, 0 warnings in 4 files\n");
    expect(fixed.status).toBe(0);
  });
});
