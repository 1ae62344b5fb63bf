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
