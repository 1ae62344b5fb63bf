// "did you mean ORB-003?": the closest known ID or name to one that is not known. One module
// serves every suggestion (check's tag findings, spec errors, project names, MCP errors).
//
// Distance: optimal string alignment (Damerau-Levenshtein without re-editing a transposed pair),
// so a swap of two neighbours is one edit: TST-90 is one edit from TST-09, as from TST-10, and
// the tie goes to the one with the same characters. The work is bounded whatever the input
// (a repository is hostile: two 20,000-character IDs took 21 s with a full edit distance):
// - a pair is only compared when its lengths differ by at most the distance allowed, its common
//   prefix and suffix skipped, and only within that band of the table (Ukkonen's cut-off),
//   stopping at the first row past it;
// - candidates are taken from where the unknown ID would stand in their sorted list outwards, and
//   the distance allowed shrinks to the best one found so far;
// - a query examines at most QUERY_CANDIDATES candidates and QUERY_CELLS cells, and one
//   suggester at most SUGGESTER_CELLS cells over all its queries (then it suggests nothing).
import { compareStrings } from "../diagnostics.js";

/** The most edits a suggested ID may be from the unknown one (also a third of its length). */
export const MAX_ID_EDITS = 4;
/** Candidates one query compares at most (those its length and family rule out cost nothing). */
export const QUERY_CANDIDATES = 20_000;
/** Table cells one query computes at most (about a few ms). */
export const QUERY_CELLS = 1_000_000;
/** Table cells one suggester computes at most over all its queries. */
export const SUGGESTER_CELLS = 50_000_000;
/** Queries whose answer a suggester remembers (the same unknown ID met in many tags). */
const MEMO_ENTRIES = 4096;
const MEMO_KEY_LENGTH = 256;

/** Table cells computed so far by this process: the measure of the work, for tests and the bench. */
export const suggestionWork = { cells: 0 };

// Rows of the table, reused (three: a transposition looks two rows back).
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The OSA distance between a and b when it is at most `max`, else `max + 1`. Their common
 * prefix and suffix are skipped (no edit touches them); the rest costs at most (2·max + 1)
 * cells per character, stopping at the first row past `max`. Without `max`, the full distance
 * (work: the product of the lengths).
 */
export function editDistance(a: string, b: string, max = Math.max(a.length, b.length)): number {
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  // A swap across the end of a common prefix would extend it: skipping it is exact for OSA too.
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  suggestionWork.cells += start + (a.length - endA);
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return Math.max(n, m);
  if (rows[0].length < m + 1) rows = [new Int32Array(m + 1), new Int32Array(m + 1), new Int32Array(m + 1)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= Math.min(m, max + 1); j++) previous[j] = j <= max ? j : over;
  let cells = 0;
  for (let i = 1; i <= n; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(m, i + max);
    current[low - 1] = low === 1 && i <= max ? i : over;
    let rowMin = current[low - 1];
    const ai = a.charCodeAt(start + i - 1);
    const aPrevious = i > 1 ? a.charCodeAt(start + i - 2) : -1;
    for (let j = low; j <= high; j++) {
      const bj = b.charCodeAt(start + j - 1);
      let d = previous[j - 1] + (ai === bj ? 0 : 1);
      if (previous[j] + 1 < d) d = previous[j] + 1;
      if (current[j - 1] + 1 < d) d = current[j - 1] + 1;
      if (j > 1 && ai === b.charCodeAt(start + j - 2) && aPrevious === bj && before[j - 2] + 1 < d) d = before[j - 2] + 1;
      if (d > over) d = over;
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (high < m) current[high + 1] = over;
    cells += high - low + 1;
    if (rowMin > max) {
      suggestionWork.cells += cells;
      return over;
    }
    [before, previous, current] = [previous, current, before];
  }
  suggestionWork.cells += cells;
  return Math.min(previous[m], over);
}

/** Characters of a not in b plus those of b not in a (0: the same characters, e.g. a swap). */
function bagDifference(a: string, b: string): number {
  suggestionWork.cells += a.length + b.length;
  const counts = new Map<number, number>();
  for (let i = 0; i < a.length; i++) counts.set(a.charCodeAt(i), (counts.get(a.charCodeAt(i)) ?? 0) + 1);
  for (let i = 0; i < b.length; i++) counts.set(b.charCodeAt(i), (counts.get(b.charCodeAt(i)) ?? 0) - 1);
  let difference = 0;
  for (const c of counts.values()) difference += Math.abs(c);
  return difference;
}

interface Best {
  value: string;
  distance: number;
  bag: number;
}

/**
 * The candidate as the new best when it ranks before `best`: fewer edits, then the same
 * characters (a swap before a substitution), then code-point order; else null.
 */
function better(candidate: string, distance: number, bag: () => number, best: Best | null): Best | null {
  if (best !== null && distance > best.distance) return null;
  const difference = bag();
  if (
    best === null ||
    distance < best.distance ||
    difference < best.bag ||
    (difference === best.bag && compareStrings(candidate, best.value) < 0)
  ) {
    return { value: candidate, distance, bag: difference };
  }
  return null;
}

/** The most cells editDistance(a, b, max) and the tie-break may compute. */
function pairCost(a: string, b: string, max: number): number {
  return (2 * max + 1) * a.length + a.length + b.length;
}

/** Where `unknown` would stand in a sorted list. */
function insertionPoint(sorted: readonly string[], unknown: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareStrings(sorted[mid], unknown) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The alphabetic prefix of an ID, its family (ORB of ORB-003), upper-cased. */
function familyOf(id: string): string {
  return /^[A-Za-z]*/.exec(id)![0].toUpperCase();
}

function idBudget(id: string): number {
  return Math.min(MAX_ID_EDITS, Math.max(2, Math.floor(id.length / 3)));
}

// speky:speky-ts#SUGGEST-BOUNDED
/**
 * Suggestions among a fixed set of known IDs, for many queries: IDs are grouped by family and
 * length, so a query only looks at those of its family within its budget of lengths.
 */
export class IdSuggester {
  /** Family → length → IDs (sorted: the order of examination is the same on every run). */
  private readonly index = new Map<string, Map<number, string[]>>();
  private readonly memo = new Map<string, string | null>();
  private cells = 0;

  constructor(known: Iterable<string>) {
    for (const id of known) {
      const family = familyOf(id);
      let lengths = this.index.get(family);
      if (!lengths) this.index.set(family, (lengths = new Map()));
      const list = lengths.get(id.length);
      if (list) list.push(id);
      else lengths.set(id.length, [id]);
    }
    for (const lengths of this.index.values()) for (const list of lengths.values()) list.sort(compareStrings);
  }

  /** The closest known ID of the same family within a few edits, or null. */
  suggest(unknown: string): string | null {
    const memo = this.memo.get(unknown);
    if (memo !== undefined) return memo;
    const found = this.search(unknown);
    if (this.memo.size < MEMO_ENTRIES && unknown.length <= MEMO_KEY_LENGTH) this.memo.set(unknown, found);
    return found;
  }

  private search(unknown: string): string | null {
    const lengths = this.index.get(familyOf(unknown));
    if (!lengths) return null;
    // A case-only difference is the likeliest typo of all: first (same family, same length; sorted).
    const upper = unknown.toUpperCase();
    for (const id of lengths.get(unknown.length) ?? []) if (id !== unknown && id.toUpperCase() === upper) return id;
    if (this.cells >= SUGGESTER_CELLS) return null;
    const budget = idBudget(unknown);
    const start = suggestionWork.cells;
    const spent = () => suggestionWork.cells - start;
    let best: Best | null = null;
    let examined = 0;
    // Lengths nearest first: a candidate d characters longer or shorter is at least d edits away.
    search: for (let d = 0; d <= budget; d++) {
      if (best && d > best.distance) break;
      for (const length of d === 0 ? [unknown.length] : [unknown.length - d, unknown.length + d]) {
        // From where the unknown ID would stand outwards: those sharing its longest prefix
        // first, so the best distance is found early and cuts the rest short.
        const list = lengths.get(length) ?? [];
        const at = insertionPoint(list, unknown);
        for (let k = 0; k < 2 * Math.max(at, list.length - at); k++) {
          const index = k % 2 === 0 ? at + k / 2 : at - (k + 1) / 2;
          if (index < 0 || index >= list.length) continue;
          const id = list[index];
          if (id === unknown) continue;
          const max = best ? best.distance : budget;
          // What this pair may cost at most: a pair that could pass a cap is not started.
          const cost = pairCost(unknown, id, max);
          if (++examined > QUERY_CANDIDATES || spent() + cost > QUERY_CELLS || this.cells + spent() + cost > SUGGESTER_CELLS) {
            break search;
          }
          const distance = editDistance(unknown, id, max);
          if (distance > max) continue;
          best = better(id, distance, () => bagDifference(unknown, id), best) ?? best;
        }
      }
    }
    this.cells += spent();
    return best?.value ?? null;
  }
}

/** The closest of `known` to a dangling ID: same family (ORB of ORB-003), within a few edits. */
export function suggestId(unknown: string, known: Iterable<string>): string | null {
  return new IdSuggester(known).suggest(unknown);
}

export interface NameOptions {
  /** Most edits allowed; default: 1 for names of 3 or 4 characters, 2 from 5, none below 3. */
  maxEdits?: number;
}

/** Edits allowed between a name and a known one of `length` characters. */
function nameBudget(length: number): number {
  return length >= 5 ? 2 : length >= 3 ? 1 : 0;
}

// speky:speky-ts#SUGGEST-BOUNDED
/**
 * The closest of a small set of known names (kinds, fields, project names, tags, categories)
 * to `unknown`, compared without case; null when none is within a few edits. The first
 * QUERY_CANDIDATES names are examined, with the same cut-offs as IDs.
 */
export function suggestName(unknown: string, known: Iterable<string>, options: NameOptions = {}): string | null {
  const lower = unknown.toLowerCase();
  const start = suggestionWork.cells;
  let best: Best | null = null;
  let examined = 0;
  for (const name of known) {
    if (name === unknown) continue;
    if (++examined > QUERY_CANDIDATES) break;
    const budget = Math.min(options.maxEdits ?? Number.POSITIVE_INFINITY, nameBudget(name.length));
    const candidateLower = name.toLowerCase();
    const bag = () => bagDifference(lower, candidateLower);
    if (candidateLower === lower) {
      best = better(name, 0, bag, best) ?? best;
      continue;
    }
    const max = best ? Math.min(best.distance, budget) : budget;
    if (max < 1) continue;
    if (suggestionWork.cells - start + pairCost(lower, candidateLower, max) > QUERY_CELLS) break;
    const distance = editDistance(lower, candidateLower, max);
    if (distance > max) continue;
    best = better(name, distance, bag, best) ?? best;
  }
  return best?.value ?? null;
}
