// Which lines of a file stayed, moved or changed between two versions: a line diff computed
// here, from the two texts, so that the working tree is never read through git (no clean
// filter, no fsmonitor of a hostile repository runs) and both forms of `speky diff` compare
// alike. Myers' algorithm (git's default) on the part between the common start and end; its
// work is bounded by a budget proportional to the files' size, past which the unchanged lines
// are found from the lines each side has once (patience's anchors) and their neighbours: a
// huge rewrite costs time linear in its size, and may call more lines changed, never fewer.

/** base line (1-based) → head line it is, 0 when removed or changed; and the converse. */
export interface LineMap {
  baseLines: number;
  headLines: number;
  /** Index 0 unused. */
  toHead: Int32Array;
  toBase: Int32Array;
}

/** Lines as written, a trailing "\r" dropped (a CRLF checkout compares equal to its LF blob). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith("\r")) lines[i] = lines[i].slice(0, -1);
  return lines;
}

type Match = (ai: number, bi: number) => void;

/** Myers' shortest edit script; false (nothing matched) when the budget runs out first. */
function myers(a: readonly string[], b: readonly string[], budget: number, match: Match): boolean {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let ops = 0;
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      const from = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let x = from;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      ops += 1 + x - from;
      v[off + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(off - d, off + d + 1));
        backtrack(trace, n, m, match);
        return true;
      }
    }
    trace.push(v.slice(off - d, off + d + 1));
    if (ops > budget) return false;
  }
  return false;
}

function backtrack(trace: Int32Array[], n: number, m: number, match: Match): void {
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) match(--x, --y);
    x = prevX;
    y = prevX - prevK;
  }
  while (x > 0 && y > 0) match(--x, --y);
}

/**
 * The unchanged lines by anchors: the lines found once on each side, in an order both keep
 * (longest increasing subsequence), then the equal lines next to each anchor.
 */
function anchored(a: readonly string[], b: readonly string[], match: Match): void {
  const seenA = new Map<string, number>();
  for (let i = 0; i < a.length; i++) seenA.set(a[i], seenA.has(a[i]) ? -1 : i);
  const seenB = new Map<string, number>();
  for (let j = 0; j < b.length; j++) seenB.set(b[j], seenB.has(b[j]) ? -1 : j);
  const pairs: [number, number][] = [];
  for (let i = 0; i < a.length; i++) {
    const j = seenB.get(a[i]);
    if (seenA.get(a[i]) === i && j !== undefined && j >= 0) pairs.push([i, j]);
  }
  // Longest increasing subsequence of the b positions (patience sorting).
  const tails: number[] = [];
  const before = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < pairs[p][1]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) before[p] = tails[lo - 1];
    tails[lo] = p;
  }
  const chain: [number, number][] = [];
  for (let p = tails.length > 0 ? tails[tails.length - 1] : -1; p >= 0; p = before[p]) chain.push(pairs[p]);
  chain.reverse();
  let ai = 0;
  let bi = 0;
  for (const [i, j] of [...chain, [a.length, b.length] as [number, number]]) {
    // The gap before this anchor: equal lines from its start, then from its end.
    let s = 0;
    while (ai + s < i && bi + s < j && a[ai + s] === b[bi + s]) {
      match(ai + s, bi + s);
      s++;
    }
    let e = 0;
    while (i - e - 1 >= ai + s && j - e - 1 >= bi + s && a[i - e - 1] === b[j - e - 1]) {
      match(i - e - 1, j - e - 1);
      e++;
    }
    if (i < a.length) match(i, j);
    ai = i + 1;
    bi = j + 1;
  }
}

/** Work Myers may spend per line of the part compared, and at least. */
const BUDGET_PER_LINE = 4;
const MIN_BUDGET = 50_000;

// speky:speky-ts#DIFF-LINES
export function diffLines(baseText: string, headText: string): LineMap {
  // Lines are compared as strings: interning them first cost more than every comparison.
  const a = splitLines(baseText);
  const b = splitLines(headText);
  const toHead = new Int32Array(a.length + 1);
  const toBase = new Int32Array(b.length + 1);
  const match: Match = (ai, bi) => {
    toHead[ai + 1] = bi + 1;
    toBase[bi + 1] = ai + 1;
  };
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    match(start, start);
    start++;
  }
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) {
    match(a.length - 1 - end, b.length - 1 - end);
    end++;
  }
  const midA = a.slice(start, a.length - end);
  const midB = b.slice(start, b.length - end);
  if (midA.length > 0 && midB.length > 0) {
    const shifted: Match = (ai, bi) => match(ai + start, bi + start);
    const budget = MIN_BUDGET + BUDGET_PER_LINE * (midA.length + midB.length);
    if (!myers(midA, midB, budget, shifted)) anchored(midA, midB, shifted);
  }
  return { baseLines: a.length, headLines: b.length, toHead, toBase };
}

/**
 * For each changed line, the number of its hunk (a run of changed lines on either side between
 * two unchanged ones); 0 for an unchanged line. A tag rewritten in place is in one hunk on both sides.
 */
export function hunksOf(map: LineMap): { base: Int32Array; head: Int32Array } {
  const base = new Int32Array(map.baseLines + 1);
  const head = new Int32Array(map.headLines + 1);
  let hunk = 0;
  let i = 1;
  let j = 1;
  while (i <= map.baseLines || j <= map.headLines) {
    if (i <= map.baseLines && j <= map.headLines && map.toHead[i] === j) {
      i++;
      j++;
      continue;
    }
    hunk++;
    const from = i + j;
    while (i <= map.baseLines && map.toHead[i] === 0) base[i++] = hunk;
    while (j <= map.headLines && map.toBase[j] === 0) head[j++] = hunk;
    if (i + j === from) break; // not a monotonic map: cannot happen with diffLines' maps
  }
  return { base, head };
}

/** Prefix counts of changed lines (index 0 = 0), so that a span's overlap is one subtraction. */
export function changedCounts(to: Int32Array): Int32Array {
  const counts = new Int32Array(to.length);
  for (let i = 1; i < to.length; i++) counts[i] = counts[i - 1] + (to[i] === 0 ? 1 : 0);
  return counts;
}

/** Whether lines start..end (1-based, clamped to the file) hold a changed line. */
export function spanChanged(counts: Int32Array, start: number, end: number): boolean {
  const last = Math.min(end, counts.length - 1);
  const first = Math.max(start, 1);
  return last >= first && counts[last] - counts[first - 1] > 0;
}
