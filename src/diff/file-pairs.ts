// Which file of the base is which file of the head, for the files holding code references on
// either side: the same path when both sides have it; else a rename, found as git finds them
// (the same content, else at least half of the lines in common, the most similar pairs first);
// else a file added or deleted. Only tagged files are compared, and the work of finding inexact
// renames is bounded: past MAX_RENAME_WORK lines compared, only exact renames are found.
import { compareStrings } from "../diagnostics.js";
import { diffLines, type LineMap, splitLines } from "./line-diff.js";
import type { Side } from "./sides.js";

export interface FilePair {
  base: string | null;
  head: string | null;
  /** null when one side has no such file (every line of the other is changed), or when identical. */
  map: LineMap | null;
  /** Both sides have the file, byte for byte the same. */
  identical: boolean;
}

/** Lines compared, in total, in the search for inexact renames. */
export const MAX_RENAME_WORK = 20_000_000;
/** A rename keeps at least this share of the larger file's lines (git's default, 50%). */
const MIN_SIMILARITY = 0.5;

function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of splitLines(text)) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

function similarity(a: Map<string, number>, aLines: number, b: Map<string, number>, bLines: number): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const [line, n] of small) common += Math.min(n, large.get(line) ?? 0);
  return common / Math.max(aLines, bLines, 1);
}

// speky:speky-ts#DIFF-RENAMES
/** Renames from the base's files (not on the head) to the head's (not on the base): head → base. */
export function findRenames(base: Side, head: Side, gone: readonly string[], arrived: readonly string[]): Map<string, string> {
  const renames = new Map<string, string>();
  if (gone.length === 0 || arrived.length === 0) return renames;
  const baseTexts = new Map(gone.map((f) => [f, base.text(f) ?? ""]));
  const headTexts = new Map(arrived.map((f) => [f, head.text(f) ?? ""]));
  // Exact: the same text (every line ending alike).
  const byText = new Map<string, string[]>();
  for (const [f, text] of baseTexts) byText.set(text, [...(byText.get(text) ?? []), f]);
  const taken = new Set<string>();
  for (const f of arrived) {
    const source = byText.get(headTexts.get(f)!)?.find((s) => !taken.has(s));
    if (source === undefined) continue;
    renames.set(f, source);
    taken.add(source);
  }
  // Inexact, within the bound: every remaining pair scored, the best taken first.
  const sources = gone.filter((f) => !taken.has(f));
  const targets = arrived.filter((f) => !renames.has(f));
  const lines = (text: string) => splitLines(text).length;
  const work = sources.reduce((n, f) => n + lines(baseTexts.get(f)!), 0) * targets.length;
  if (sources.length === 0 || targets.length === 0 || work > MAX_RENAME_WORK) return renames;
  const counted = (texts: Map<string, string>, f: string) => {
    const text = texts.get(f)!;
    return { counts: lineCounts(text), lines: lines(text) };
  };
  const from = sources.map((f) => ({ f, ...counted(baseTexts, f) }));
  const to = targets.map((f) => ({ f, ...counted(headTexts, f) }));
  const scored: { score: number; source: string; target: string }[] = [];
  for (const s of from) {
    for (const t of to) {
      const score = similarity(s.counts, s.lines, t.counts, t.lines);
      if (score >= MIN_SIMILARITY) scored.push({ score, source: s.f, target: t.f });
    }
  }
  scored.sort((a, b) => b.score - a.score || compareStrings(a.source, b.source) || compareStrings(a.target, b.target));
  for (const { source, target } of scored) {
    if (taken.has(source) || renames.has(target)) continue;
    renames.set(target, source);
    taken.add(source);
  }
  return renames;
}

/** The pair of two files both sides have; most tagged files did not change, and are told so by their bytes alone. */
function both(base: Side, head: Side, basePath: string, headPath: string): FilePair {
  const before = base.bytes(basePath) ?? Buffer.alloc(0);
  const after = head.bytes(headPath) ?? Buffer.alloc(0);
  if (before.equals(after)) return { base: basePath, head: headPath, map: null, identical: true };
  return { base: basePath, head: headPath, map: diffLines(before.toString("utf8"), after.toString("utf8")), identical: false };
}

/** The pairs of files to compare: every file holding a reference on either side, once. */
export function pairFiles(base: Side, head: Side, baseFiles: Iterable<string>, headFiles: Iterable<string>): FilePair[] {
  const baseList = [...new Set(baseFiles)].sort(compareStrings);
  const headList = [...new Set(headFiles)].sort(compareStrings);
  const gone = baseList.filter((f) => !head.has(f));
  const arrived = headList.filter((f) => !base.has(f));
  const renames = findRenames(base, head, gone, arrived);
  const renamedFrom = new Set(renames.values());
  const pairs: FilePair[] = [];
  const paired = new Set<string>();
  for (const f of headList) {
    const source = base.has(f) ? f : (renames.get(f) ?? null);
    pairs.push(source === null ? { base: null, head: f, map: null, identical: false } : both(base, head, source, f));
    if (source !== null) paired.add(source);
  }
  for (const f of baseList) {
    if (paired.has(f) || renamedFrom.has(f)) continue;
    pairs.push(head.has(f) ? both(base, head, f, f) : { base: f, head: null, map: null, identical: false });
  }
  return pairs;
}
