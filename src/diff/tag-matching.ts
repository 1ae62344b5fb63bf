// Which tag of the base is which tag of the head (docs/changes.md, "Code references"). Within a
// pair of files, pass by pass, each pass's key saying which head reference a base reference
// may be:
//   1. the same tag (ID, symbol, test or not) on the line its line became (an unchanged line
//      moved by the edits above it)                                         → the same tag
//   2. the same tag written in the same changed run of lines on both sides (its comment
//      rewritten in place)                                                  → the same tag
//   3. the same tag on the same definition elsewhere in the file            → moved
//   4. the same ID at the place of 1 or 2 on another symbol (its definition renamed where it
//      stands, or a free tag now above a definition)                        → moved
// Then, across files, what is left: the same tag on the same symbol in another file → moved.
// What is left after that is removed or added. Linear in the references: each pass is one map.
import type { CodeReference } from "../scan/types.js";
import { hunksOf, type LineMap } from "./line-diff.js";

export interface TagMatch {
  base: CodeReference;
  head: CodeReference;
  /** It went with its definition to another place, or its definition was renamed. */
  moved: boolean;
}

export interface Matched {
  pairs: TagMatch[];
  gone: CodeReference[];
  arrived: CodeReference[];
}

type Key = (r: CodeReference) => string | null;
type Pass = { base: Key; head: Key; moved: boolean };

const sameId = (r: CodeReference) => `${r.project.toLowerCase()}\0${r.id}\0${r.is_test}`;
const sameTag = (r: CodeReference) => `${sameId(r)}\0${r.symbol ?? ""}`;
const onSymbol = (r: CodeReference) => (r.symbol !== null ? sameTag(r) : null);

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

function matchPasses(before: readonly CodeReference[], after: readonly CodeReference[], passes: Pass[]): Matched {
  const pairs: TagMatch[] = [];
  let gone = [...before];
  let arrived = [...after];
  for (const pass of passes) {
    if (gone.length === 0 || arrived.length === 0) break;
    const candidates = groupBy(arrived, pass.head);
    const taken = new Set<CodeReference>();
    const next: CodeReference[] = [];
    for (const b of gone) {
      const k = pass.base(b);
      const partner = k === null ? undefined : candidates.get(k)?.shift();
      if (partner) {
        taken.add(partner);
        pairs.push({ base: b, head: partner, moved: pass.moved });
      } else next.push(b);
    }
    gone = next;
    arrived = arrived.filter((h) => !taken.has(h));
  }
  return { pairs, gone, arrived };
}

/** The passes at a place (1, 2 or 4): the tag's line mapped to the head, or its changed run of lines. */
function placePasses(map: LineMap, tag: (r: CodeReference) => string, moved: boolean): Pass[] {
  const hunks = hunksOf(map);
  return [
    {
      base: (b) => (map.toHead[b.tag_line] ? `${tag(b)}\0${map.toHead[b.tag_line]}` : null),
      head: (h) => `${tag(h)}\0${h.tag_line}`,
      moved,
    },
    {
      base: (b) => (hunks.base[b.tag_line] ? `${tag(b)}\0${hunks.base[b.tag_line]}` : null),
      head: (h) => (hunks.head[h.tag_line] ? `${tag(h)}\0${hunks.head[h.tag_line]}` : null),
      moved,
    },
  ];
}

// speky:speky-ts#DIFF-MOVED
/** The tags of one file on both sides; `map` null when one side has no such file, "identical" when both are the same bytes. */
export function matchFile(before: readonly CodeReference[], after: readonly CodeReference[], map: LineMap | "identical" | null): Matched {
  if (map === null) return { pairs: [], gone: [...before], arrived: [...after] };
  if (map === "identical") {
    const atLine = (r: CodeReference) => `${sameTag(r)}\0${r.tag_line}`;
    return matchPasses(before, after, [{ base: atLine, head: atLine, moved: false }]);
  }
  return matchPasses(before, after, [
    ...placePasses(map, sameTag, false),
    { base: onSymbol, head: onSymbol, moved: true },
    ...placePasses(map, sameId, true),
  ]);
}

/** What is left of every file: the same tag on the same symbol in another file. */
export function matchAcrossFiles(gone: readonly CodeReference[], arrived: readonly CodeReference[]): Matched {
  return matchPasses(gone, arrived, [{ base: onSymbol, head: onSymbol, moved: true }]);
}
