// What a change did to the code references and which tagged definitions it touched.
//
// A tag is the same tag on both sides when it names the same ID on the same symbol (or none),
// alike as a test or not, in the same file (renames followed), and: its line is an unchanged
// line moved by the edits above it; or it is written inside the same changed run of lines on
// both sides (the tag's comment rewritten in place); or, for a tag on a definition, the
// definition is the same (it moved within the file). Every other tag is added or removed.
//
// impact: the tagged definitions of the head whose span (the scanner's: first decorator or name
// line to last line) holds a changed line; a base definition whose span holds a removed line
// counts as its head counterpart (the same symbol in the same file) or, when the head has
// none (it was deleted, or lost its tag), as itself, with the base's lines.
import type { CodeReference } from "../scan/types.js";
import { type FilePair, pairFiles } from "./file-pairs.js";
import { changedCounts, hunksOf, type LineMap, spanChanged } from "./line-diff.js";
import { compareImpact, compareRefs, type ImpactEntry, impactEntry, type RefShape, refShape } from "./shapes.js";
import type { Side } from "./sides.js";

export interface CodeChanges {
  added: RefShape[];
  removed: RefShape[];
  impact: ImpactEntry[];
}

/** Links of a side's references, when they must differ from the scan's (a revision: its commit). */
export type LinkOf = (ref: CodeReference) => string | undefined;

interface Grouped {
  /** Repository path → its references, in the model's order. */
  files: Map<string, CodeReference[]>;
  /** References outside the repository (trees reaching out with --allow-outside): compared as they are. */
  outside: Map<string, CodeReference[]>;
}

function group(refs: readonly CodeReference[], side: Side): Grouped {
  const files = new Map<string, CodeReference[]>();
  const outside = new Map<string, CodeReference[]>();
  for (const ref of refs) {
    const file = side.fileOf(ref);
    const [map, key] = file === null ? [outside, `${ref.project.toLowerCase()}\0${ref.file}`] : [files, file];
    const list = map.get(key);
    if (list) list.push(ref);
    else map.set(key, [ref]);
  }
  return { files, outside };
}

const sameTag = (r: CodeReference) => `${r.project.toLowerCase()}\0${r.id}\0${r.symbol ?? ""}\0${r.is_test}`;

/** Groups values by a key, each group in the values' order. */
function groupBy<T>(values: Iterable<T>, key: (v: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const v of values) {
    const k = key(v);
    if (k === null) continue;
    const list = groups.get(k);
    if (list) list.push(v);
    else groups.set(k, [v]);
  }
  return groups;
}

/**
 * Pairs the references of one file on both sides, pass by pass (each pass's key says which
 * head reference a base reference may be: its moved line, its hunk, its definition); what is
 * left of each side is removed or added. Linear in the references: each pass is one map.
 */
function matchRefs(before: CodeReference[], after: CodeReference[], map: LineMap | "identical" | null): [CodeReference[], CodeReference[]] {
  if (map === null) return [before, after];
  if (map === "identical")
    return matchPasses(before, after, [[(b) => `${sameTag(b)}\0${b.tag_line}`, (h) => `${sameTag(h)}\0${h.tag_line}`]]);
  const hunks = hunksOf(map);
  return matchPasses(before, after, [
    [(b) => (map.toHead[b.tag_line] ? `${sameTag(b)}\0${map.toHead[b.tag_line]}` : null), (h) => `${sameTag(h)}\0${h.tag_line}`],
    [
      (b) => (hunks.base[b.tag_line] ? `${sameTag(b)}\0${hunks.base[b.tag_line]}` : null),
      (h) => (hunks.head[h.tag_line] ? `${sameTag(h)}\0${hunks.head[h.tag_line]}` : null),
    ],
    [(b) => (b.symbol !== null ? sameTag(b) : null), (h) => (h.symbol !== null ? sameTag(h) : null)],
  ]);
}

type Pass = [(b: CodeReference) => string | null, (h: CodeReference) => string | null];

function matchPasses(before: CodeReference[], after: CodeReference[], passes: Pass[]): [CodeReference[], CodeReference[]] {
  let baseLeft = before;
  let headLeft = after;
  for (const [baseKey, headKey] of passes) {
    const candidates = groupBy(headLeft, headKey);
    const taken = new Set<CodeReference>();
    const next: CodeReference[] = [];
    for (const b of baseLeft) {
      const k = baseKey(b);
      const partner = k === null ? undefined : candidates.get(k)?.shift();
      if (partner) taken.add(partner);
      else next.push(b);
    }
    baseLeft = next;
    headLeft = headLeft.filter((h) => !taken.has(h));
  }
  return [baseLeft, headLeft];
}

interface Definition {
  symbol: string;
  span: [number, number];
  refs: CodeReference[];
}

/** The tagged definitions among a file's references, each once with all its tags. */
function definitions(refs: readonly CodeReference[]): Definition[] {
  const found = new Map<string, Definition>();
  for (const r of refs) {
    if (r.symbol === null || r.start_line === undefined || r.end_line === undefined) continue;
    const key = `${r.start_line}:${r.end_line}:${r.symbol}`;
    const known = found.get(key);
    if (known) known.refs.push(r);
    else found.set(key, { symbol: r.symbol, span: [r.start_line, r.end_line], refs: [r] });
  }
  return [...found.values()];
}

function entryOf(d: Definition, linkOf: LinkOf): ImpactEntry {
  const first = d.refs[0];
  return impactEntry(
    first.file,
    d.symbol,
    d.span,
    d.refs.map((r) => r.id),
    d.refs.filter((r) => r.is_test).map((r) => r.id),
    linkOf(first),
  );
}

// speky:speky-ts#DIFF-IMPACT
function impactOf(
  pair: FilePair,
  before: readonly CodeReference[],
  after: readonly CodeReference[],
  links: [LinkOf, LinkOf],
): ImpactEntry[] {
  const headDefs = definitions(after);
  const baseDefs = definitions(before);
  const headCounts = pair.map ? changedCounts(pair.map.toBase) : null;
  const baseCounts = pair.map ? changedCounts(pair.map.toHead) : null;
  const hit = new Set<Definition>();
  for (const d of headDefs) if (headCounts === null || spanChanged(headCounts, d.span[0], d.span[1])) hit.add(d);
  const entries: ImpactEntry[] = [];
  const bySymbol = groupBy(headDefs, (h) => h.symbol);
  for (const d of baseDefs) {
    if (baseCounts !== null && !spanChanged(baseCounts, d.span[0], d.span[1])) continue;
    const twins = bySymbol.get(d.symbol) ?? [];
    const moved = pair.map?.toHead[d.span[0]];
    const twin = twins.find((h) => h.span[0] === moved) ?? twins[0];
    if (twin) hit.add(twin);
    else entries.push(entryOf(d, links[0]));
  }
  for (const d of hit) entries.push(entryOf(d, links[1]));
  return entries;
}

// speky:speky-ts#DIFF-CODE-CHANGES
/** Both sides' models must be loaded. */
export function compareCode(base: Side, head: Side, links: [LinkOf, LinkOf]): CodeChanges {
  const before = group(base.result.model!.codeReferences, base);
  const after = group(head.result.model!.codeReferences, head);
  const added: CodeReference[] = [];
  const removed: CodeReference[] = [];
  const impact: ImpactEntry[] = [];
  for (const pair of pairFiles(base, head, before.files.keys(), after.files.keys())) {
    const b = pair.base === null ? [] : (before.files.get(pair.base) ?? []);
    const h = pair.head === null ? [] : (after.files.get(pair.head) ?? []);
    const [gone, arrived] = matchRefs(b, h, pair.identical ? "identical" : pair.base !== null && pair.head !== null ? pair.map : null);
    removed.push(...gone);
    added.push(...arrived);
    if (!pair.identical) impact.push(...impactOf(pair, b, h, links));
  }
  // Outside the repository both sides read the same files: compared as they are.
  for (const key of new Set([...before.outside.keys(), ...after.outside.keys()])) {
    const b = before.outside.get(key) ?? [];
    const h = after.outside.get(key) ?? [];
    const [gone, arrived] = matchRefs(b, h, "identical");
    removed.push(...gone);
    added.push(...arrived);
  }
  return {
    added: added.map((r) => refShape(r, links[1](r))).sort(compareRefs),
    removed: removed.map((r) => refShape(r, links[0](r))).sort(compareRefs),
    impact: impact.sort(compareImpact),
  };
}
