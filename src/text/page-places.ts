// Where each item's view lives: items sorted by ID, CHUNK of them per file (writing 30,000
// small files costs seconds of file system time; 300 larger ones do not), each an <article>
// whose element id is the fragment. IDs are hostile: `../x`, `a b`, `main`, names that differ
// only in case, thousands of characters; each gets a portable, unique, deterministic anchor.

export const CHUNK = 100;
/** Estimated characters of the item views one page holds (an item heavier alone gets a page of its own). */
export const PAGE_WEIGHT = 4_000_000;

export interface Place {
  /** File name in its folder, e.g. `0003.html`. */
  file: string;
  /** Element id of the item's article: the URL fragment. */
  anchor: string;
}

const UNSAFE = /[^A-Za-z0-9._-]/g;
const MAX_ANCHOR = 80;
/** Element ids the page frame uses; no anchor may take them. */
const RESERVED = ["main", "top"];

function baseAnchor(id: string): string {
  const base = id.replace(UNSAFE, "_").slice(0, MAX_ANCHOR);
  return base === "" ? "_" : base;
}

/**
 * ID → place; ids must be given sorted (the report's order). A page holds CHUNK items, fewer
 * when their `weights` (estimated characters of their views, weights.ts) pass PAGE_WEIGHT.
 */
// speky:speky-ts#SEC-REPORT-BOUNDS
export function placeItems(ids: readonly string[], weights?: readonly number[]): Map<string, Place> {
  const places = new Map<string, Place>();
  const taken = new Set(RESERVED);
  let page = 1;
  let onPage = 0;
  let weight = 0;
  ids.forEach((id, i) => {
    const base = baseAnchor(id);
    let anchor = base;
    // Case-insensitively unique: one anchor per item even where the file system folds case.
    for (let n = 2; taken.has(anchor.toLowerCase()); n++) anchor = `${base}-${n}`;
    taken.add(anchor.toLowerCase());
    const w = weights?.[i] ?? 0;
    if (onPage === CHUNK || (onPage > 0 && weight + w > PAGE_WEIGHT)) {
      page++;
      onPage = 0;
      weight = 0;
    }
    onPage++;
    weight += w;
    places.set(id, { file: `${String(page).padStart(4, "0")}.html`, anchor });
  });
  return places;
}
