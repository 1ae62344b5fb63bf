// What a change did to the code references and which tagged definitions it touched: the files
// holding tags paired (renames followed: file-pairs.ts), their tags matched (tag-matching.ts),
// what is left removed or added, and the definitions the changed lines fall in (impact.ts).
// Every `file` is from the repository's top, whichever manifest's root the scan read it from.
import type { CodeReference } from "../scan/types.js";
import { pairFiles } from "./file-pairs.js";
import { impactOf, type LinkOf } from "./impact.js";
import { compareImpact, compareMoved, compareRefs, type ImpactEntry, type MovedRef, type RefShape, refShape } from "./shapes.js";
import type { Side } from "./sides.js";
import { matchAcrossFiles, matchFile, type TagMatch } from "./tag-matching.js";

export type { LinkOf } from "./impact.js";

export interface CodeChanges {
  added: RefShape[];
  removed: RefShape[];
  moved: MovedRef[];
  impact: ImpactEntry[];
}

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

// speky:speky-ts#DIFF-CODE-CHANGES
// speky:speky-ts#DIFF-REPOSITORY-PATHS
/** Both sides' models must be loaded. */
export function compareCode(base: Side, head: Side, links: [LinkOf, LinkOf]): CodeChanges {
  const before = group(base.result.model!.codeReferences, base);
  const after = group(head.result.model!.codeReferences, head);
  const gone: CodeReference[] = [];
  const arrived: CodeReference[] = [];
  const pairs: TagMatch[] = [];
  const pairsOfFiles = pairFiles(base, head, before.files.keys(), after.files.keys());
  const refsOf = (map: Map<string, CodeReference[]>, file: string | null) => (file === null ? [] : (map.get(file) ?? []));
  for (const pair of pairsOfFiles) {
    const b = refsOf(before.files, pair.base);
    const h = refsOf(after.files, pair.head);
    const matched = matchFile(b, h, pair.identical ? "identical" : pair.base !== null && pair.head !== null ? pair.map : null);
    // A file renamed: every tag that went with it moved.
    const renamed = pair.base !== null && pair.head !== null && pair.base !== pair.head;
    for (const m of matched.pairs) pairs.push(renamed ? { ...m, moved: true } : m);
    gone.push(...matched.gone);
    arrived.push(...matched.arrived);
  }
  const across = matchAcrossFiles(gone, arrived);
  pairs.push(...across.pairs);
  const partnerOf = new Map(pairs.map((m) => [m.base, m.head]));
  const impact: ImpactEntry[] = [];
  for (const pair of pairsOfFiles) {
    if (pair.identical) continue;
    const refs: [CodeReference[], CodeReference[]] = [refsOf(before.files, pair.base), refsOf(after.files, pair.head)];
    impact.push(...impactOf(pair, [base, head], refs, partnerOf, links));
  }
  const removed = across.gone;
  const added = across.arrived;
  // Outside the repository both sides read the same files: compared as they are.
  for (const key of new Set([...before.outside.keys(), ...after.outside.keys()])) {
    const matched = matchFile(before.outside.get(key) ?? [], after.outside.get(key) ?? [], "identical");
    removed.push(...matched.gone);
    added.push(...matched.arrived);
  }
  const shape = (side: Side, link: LinkOf) => (r: CodeReference) => refShape(r, side.fileOf(r), link(r));
  const [fromShape, toShape] = [shape(base, links[0]), shape(head, links[1])];
  return {
    added: added.map(toShape).sort(compareRefs),
    removed: removed.map(fromShape).sort(compareRefs),
    moved: pairs
      .filter((m) => m.moved)
      .map((m) => ({ id: m.head.id, project: m.head.project, from: fromShape(m.base), to: toShape(m.head) }))
      .sort(compareMoved),
    impact: impact.sort(compareImpact),
  };
}
