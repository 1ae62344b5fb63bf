// Which tagged definitions a change touched (docs/changes.md, "Impact"). A definition counts with
// every tag on it: its symbol references (the scanner's span: first decorator or name line to last
// line), and the free tags whose innermost enclosing definition it is. A free tag outside every
// definition (a module docstring, a file header) counts for its whole file.
//
// The head's definitions whose span holds a changed line are in impact; a base definition whose
// span holds a removed line counts as its head counterpart (the same symbol in the same file,
// else the definition its tags went to) or, when the head has none (it was deleted, or lost its
// tags), as itself, with the base's lines.
import { innermost } from "../model/navigate.js";
import type { CodeReference } from "../scan/types.js";
import type { FilePair } from "./file-pairs.js";
import { changedCounts, spanChanged, splitLines } from "./line-diff.js";
import { type ImpactEntry, impactEntry } from "./shapes.js";
import type { Side } from "./sides.js";

/** Links of a side's references, when they must differ from the scan's (a revision: its commit). */
export type LinkOf = (ref: CodeReference) => string | undefined;

interface Definition {
  /** null: known by its lines only (a free tag's enclosing definition), or the whole file. */
  symbol: string | null;
  span: [number, number];
  refs: CodeReference[];
}

/** The lines of a side's file: from the line map, else the scan's outline, else its text. */
function lineCount(side: Side, file: string, refs: readonly CodeReference[], fromMap: number | undefined): number {
  if (fromMap !== undefined) return fromMap;
  const outline = refs.find((r) => r.outline)?.outline;
  if (outline) return outline.lines;
  const text = side.text(file);
  return text === null ? Math.max(...refs.map((r) => r.tag_line)) : splitLines(text).length;
}

// speky:speky-ts#DIFF-FREE-TAG-IMPACT
/** The definitions among a file's references, each once with all its tags (free ones included). */
function definitions(refs: readonly CodeReference[], lines: () => number): Definition[] {
  const found = new Map<string, Definition>();
  const bySpan = new Map<string, Definition>();
  for (const r of refs) {
    if (r.symbol === null || r.start_line === undefined || r.end_line === undefined) continue;
    const key = `${r.start_line}:${r.end_line}:${r.symbol}`;
    const known = found.get(key);
    if (known) known.refs.push(r);
    else {
      const d: Definition = { symbol: r.symbol, span: [r.start_line, r.end_line], refs: [r] };
      found.set(key, d);
      if (!bySpan.has(`${r.start_line}:${r.end_line}`)) bySpan.set(`${r.start_line}:${r.end_line}`, d);
    }
  }
  for (const r of refs) {
    if (r.symbol !== null) continue;
    const around = innermost(r.outline?.spans ?? [], r.tag_line);
    const span: [number, number] = around ? [around[0], around[1]] : [1, lines()];
    const key = `${span[0]}:${span[1]}`;
    const known = bySpan.get(key);
    if (known) known.refs.push(r);
    else bySpan.set(key, { symbol: null, span, refs: [r] });
  }
  return [...new Set([...found.values(), ...bySpan.values()])];
}

function entryOf(d: Definition, file: string | null, linkOf: LinkOf): ImpactEntry {
  const first = d.refs.find((r) => r.symbol !== null) ?? d.refs[0];
  return impactEntry(
    first.project,
    file ?? first.file,
    d.symbol,
    d.span,
    d.refs.map((r) => r.id),
    d.refs.filter((r) => r.is_test).map((r) => r.id),
    linkOf(first),
  );
}

// speky:speky-ts#DIFF-IMPACT
export function impactOf(
  pair: FilePair,
  sides: [Side, Side],
  refs: [readonly CodeReference[], readonly CodeReference[]],
  partnerOf: ReadonlyMap<CodeReference, CodeReference>,
  links: [LinkOf, LinkOf],
): ImpactEntry[] {
  const [before, after] = refs;
  const headDefs = pair.head === null ? [] : definitions(after, () => lineCount(sides[1], pair.head!, after, pair.map?.headLines));
  const baseDefs = pair.base === null ? [] : definitions(before, () => lineCount(sides[0], pair.base!, before, pair.map?.baseLines));
  const headCounts = pair.map ? changedCounts(pair.map.toBase) : null;
  const baseCounts = pair.map ? changedCounts(pair.map.toHead) : null;
  const hit = new Set<Definition>();
  for (const d of headDefs) if (headCounts === null || spanChanged(headCounts, d.span[0], d.span[1])) hit.add(d);
  const entries: ImpactEntry[] = [];
  const bySymbol = new Map<string, Definition[]>();
  for (const h of headDefs) if (h.symbol !== null) bySymbol.set(h.symbol, [...(bySymbol.get(h.symbol) ?? []), h]);
  const holding = new Map<CodeReference, Definition>();
  for (const h of headDefs) for (const r of h.refs) holding.set(r, h);
  for (const d of baseDefs) {
    if (baseCounts !== null && !spanChanged(baseCounts, d.span[0], d.span[1])) continue;
    const twins = d.symbol === null ? [] : (bySymbol.get(d.symbol) ?? []);
    const moved = pair.map?.toHead[d.span[0]];
    const went = d.refs.map((r) => partnerOf.get(r)).find((h) => h !== undefined && holding.has(h));
    const twin = twins.find((h) => h.span[0] === moved) ?? twins[0] ?? (went ? holding.get(went) : undefined);
    if (twin) hit.add(twin);
    else entries.push(entryOf(d, pair.base, links[0]));
  }
  for (const d of hit) entries.push(entryOf(d, pair.head, links[1]));
  return entries;
}
