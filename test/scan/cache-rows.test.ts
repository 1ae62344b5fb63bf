// The rows a cache file is written from (src/scan/cache/cache-rows.ts): in key order once
// sorted, the last of rows with the same key standing, whether they came sorted or not.
import { describe, expect, it } from "vitest";
import { RowColumns } from "../../src/scan/cache/cache-rows.js";
import type { FileResult } from "../../src/scan/engine/file.js";

const result = (id: string) => ({ id }) as unknown as FileResult;

/** Rows from [key, size] pairs; a size of 7 marks a file holding the marker. */
function rowsOf(pairs: [string, number][]): RowColumns {
  const rows = new RowColumns();
  for (const [key, size] of pairs)
    rows.add(key, size, size * 10, size * 100, size === 7 ? `h${key}` : null, size === 7 ? result(key) : null);
  rows.sort();
  return rows;
}

/** Each row as key, stamp and hash. */
function listed(rows: RowColumns): [string, number[], string | null][] {
  const stamp = new Float64Array(3);
  return Array.from({ length: rows.length }, (_, i) => {
    rows.stampInto(i, stamp, 0);
    return [rows.key(i), [...stamp], rows.foundAt(i)?.[0] ?? null];
  });
}

describe("cache rows", () => {
  // speky:speky-ts#TSCAN-CACHE
  it("are in key order, the last of equal keys standing, sorted on arrival or not", () => {
    const sorted = rowsOf([
      ["a/x.py", 1],
      ["a/y.py", 7],
      ["b.py", 3],
    ]);
    expect(listed(sorted)).toEqual([
      ["a/x.py", [1, 10, 100], null],
      ["a/y.py", [7, 70, 700], "ha/y.py"],
      ["b.py", [3, 30, 300], null],
    ]);
    const shuffled = rowsOf([
      ["b.py", 3],
      ["a/y.py", 2],
      ["/outside/z.py", 4],
      ["a/x.py", 1],
      ["a/y.py", 7],
    ]);
    expect(listed(shuffled)).toEqual([
      ["/outside/z.py", [4, 40, 400], null],
      ["a/x.py", [1, 10, 100], null],
      ["a/y.py", [7, 70, 700], "ha/y.py"],
      ["b.py", [3, 30, 300], null],
    ]);
    // Sorted but for a repeated key at the end: the repeat stands.
    const repeated = rowsOf([
      ["a.py", 1],
      ["b.py", 2],
      ["b.py", 7],
    ]);
    expect(listed(repeated).map(([key, stamp]) => [key, stamp[0]])).toEqual([
      ["a.py", 1],
      ["b.py", 7],
    ]);
    expect(rowsOf([]).length).toBe(0);
  });
});
