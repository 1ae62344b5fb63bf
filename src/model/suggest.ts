// "did you mean ORB-003?" for a dangling ID: a defined ID sharing the alphabetic prefix
// (the family of IDs, such as ORB) and within a few edits.
import { compareStrings } from "../diagnostics.js";

function prefixOf(id: string): string {
  return /^[A-Za-z]*/.exec(id)![0].toUpperCase();
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}

export function suggestId(unknown: string, known: Iterable<string>): string | null {
  const prefix = prefixOf(unknown);
  const budget = Math.max(2, Math.floor(unknown.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const id of known) {
    if (prefixOf(id) !== prefix) continue;
    // Case-only differences are the likeliest typo of all: rank them first.
    const distance = id.toUpperCase() === unknown.toUpperCase() ? 0.5 : editDistance(unknown, id);
    if (distance > budget) continue;
    if (distance < bestDistance || (distance === bestDistance && best !== null && compareStrings(id, best) < 0)) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}

/** Longest name suggestName compares: past it, a typo is not what happened (and the work stays bounded). */
const NAME_MAX = 200;

// speky:speky-ts#MCP-DID-YOU-MEAN
/**
 * The known name closest to `unknown` (a tag, a category, a file path: names with no ID
 * family), case-only differences first, within a third of its length in edits; null when
 * none is that close. Names whose lengths differ by more than that are not compared.
 */
export function suggestName(unknown: string, known: Iterable<string>): string | null {
  if (unknown.length === 0 || unknown.length > NAME_MAX) return null;
  const budget = Math.max(2, Math.floor(unknown.length / 3));
  const folded = unknown.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of known) {
    if (name === unknown || Math.abs(name.length - unknown.length) > budget || name.length > NAME_MAX) continue;
    const distance = name.toLowerCase() === folded ? 0.5 : editDistance(unknown, name);
    if (distance > budget) continue;
    if (distance < bestDistance || (distance === bestDistance && best !== null && compareStrings(name, best) < 0)) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}
