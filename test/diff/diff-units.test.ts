// Units of speky diff: the line diff (src/diff/line-diff.ts) on seeded random files, exact
// (minimal) within its budget and a valid, order-keeping match past it; and the bound of the
// changes_since answer (src/mcp/changes-served.ts).
import { describe, expect, it } from "vitest";
import { diffLines, hunksOf, type LineMap } from "../../src/diff/line-diff.js";
import type { Changes } from "../../src/diff/shapes.js";
import { bounded } from "../../src/mcp/changes-served.js";

/** A seeded generator: the same files on every run. */
function generator(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The matched lines, checked: equal lines, in order on both sides, each map the other's inverse. */
function kept(map: LineMap, a: string[], b: string[]): number {
  let count = 0;
  let last = 0;
  for (let i = 1; i <= a.length; i++) {
    const j = map.toHead[i];
    if (j === 0) continue;
    expect(j).toBeGreaterThan(last);
    expect(a[i - 1]).toBe(b[j - 1]);
    expect(map.toBase[j]).toBe(i);
    last = j;
    count++;
  }
  return count;
}

const text = (lines: string[]) => lines.map((l) => `${l}\n`).join("");

describe("the line diff", () => {
  // speky:speky-ts#TDIFF-LINE-MAP
  it("keeps as many lines as the longest common subsequence, in order, on 3,000 seeded pairs", () => {
    const random = generator(28);
    for (let t = 0; t < 3000; t++) {
      const alphabet = 1 + Math.floor(random() * 6);
      const pick = () => Array.from({ length: Math.floor(random() * 30) }, () => String(Math.floor(random() * alphabet)));
      const a = pick();
      const b = pick();
      const map = diffLines(text(a), text(b));
      expect(kept(map, a, b)).toBe(lcs(a, b));
      // Every changed line is in a hunk, every kept line in none.
      const hunks = hunksOf(map);
      for (let i = 1; i <= a.length; i++) expect(hunks.base[i] === 0).toBe(map.toHead[i] !== 0);
      for (let j = 1; j <= b.length; j++) expect(hunks.head[j] === 0).toBe(map.toBase[j] !== 0);
    }
  });

  it("past its budget, still matches in order, keeping the lines both sides have once; CRLF is LF", () => {
    // Every third line of 60,000 changed: far more edits than Myers' budget allows.
    const a = Array.from({ length: 60_000 }, (_, i) => `line ${i}`);
    const b = a.map((line, i) => (i % 3 === 0 ? `${line} changed` : line));
    const map = diffLines(text(a), text(b));
    expect(kept(map, a, b)).toBe(40_000);
    // CRLF and LF versions of a file are the same lines.
    const crlf = diffLines("a\r\nb\r\n", "a\nb\n");
    expect([...crlf.toHead]).toEqual([0, 1, 2]);
  });
});

describe("the changes_since answer", () => {
  // speky:speky-ts#TDIFF-MCP-BOUND
  it("is cut to the bound in the document's order, marked truncated; a small one is left whole", () => {
    const summary = (i: number) => ({ id: `REQ-${String(i).padStart(6, "0")}`, category: "c", short: "x".repeat(80), project: "p" });
    const big = (): Changes => ({
      base: "main",
      base_commit: "0".repeat(40),
      head: "working tree",
      manifests: [],
      requirements: { added: Array.from({ length: 20_000 }, (_, i) => summary(i)), removed: [summary(1)], changed: [], renamed: [] },
      tests: { added: [], removed: [], changed: [], renamed: [] },
      code_references: { added: [], removed: [], moved: [] },
      coverage: [],
      impact: [],
      suspect: [],
      rerun: ["T-1"],
    });
    const cut = bounded(big(), 1024 * 1024);
    expect(cut.truncated).toBe(true);
    const added = cut.requirements!.added;
    expect(added.length).toBeGreaterThan(1000);
    expect(added.length).toBeLessThan(20_000);
    expect(added).toEqual(big().requirements!.added.slice(0, added.length));
    expect(JSON.stringify(added).length).toBeLessThanOrEqual(1024 * 1024);
    // Past the cut every later list is empty, never a sample of it.
    expect(cut.requirements!.removed).toEqual([]);
    expect(cut.rerun).toEqual([]);
    const small = big();
    small.requirements!.added = small.requirements!.added.slice(0, 10);
    expect(bounded(small, 1024 * 1024)).toEqual(small);
    expect("truncated" in bounded(small, 1024 * 1024)).toBe(false);
  });
});
