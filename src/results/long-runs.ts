// A results file's text before the XML parser sees it, with every long run of plain characters
// cut to its start (docs/security.md, "Test results"). saxes gathers an attribute's value or a
// text node whole before it hands it over: a 100 MB testcase name held 100 MB and more in the
// parser, though only its first MAX_NAME characters are kept. A run is what lies between two
// characters that XML gives a meaning to (`<>&;"'=/?!]-` and line ends): cutting one never
// changes the document's structure, an element's name is cut alike where it opens and closes,
// and lines keep their numbers (a column after a cut on its line is the cut text's).
// Linear: one pass over each character.

/** Characters kept of a run of plain characters: more than any name or text kept downstream. */
export const MAX_RUN = 8192;

const SIGNIFICANT = new Uint8Array(128);
for (const c of "<>&;\"'=/?!]-\n\r") SIGNIFICANT[c.charCodeAt(0)] = 1;
/** Probes are this far apart: every run longer than MAX_RUN holds one, and most chunks hold no long run. */
const PROBE = MAX_RUN / 2;

const plainAt = (text: string, i: number) => {
  const code = text.charCodeAt(i);
  return code >= 128 || SIGNIFICANT[code] === 0;
};

// speky:speky-ts#RESULTS-LINEAR
export class LongRunCutter {
  /** Length of the run of plain characters that ended the text so far (across chunks). */
  private run = 0;
  /** Runs cut so far. */
  cuts = 0;

  /**
   * The chunk with its runs cut (the chunk itself when none is); call with every chunk in order.
   * Only the characters around a probe every PROBE characters are looked at, plus the runs
   * at the chunk's ends: linear, and a few thousand looks for a chunk of short runs.
   */
  cut(chunk: string): string {
    const n = chunk.length;
    const drops: [from: number, to: number][] = [];
    const drop = (from: number, to: number) => {
      if (from < to) drops.push([from, to]);
    };
    // The run the chunk starts with continues the one before it.
    let first = 0;
    while (first < n && plainAt(chunk, first)) first++;
    const carried = this.run + first;
    if (carried > MAX_RUN) {
      drop(Math.max(0, MAX_RUN - this.run), first);
      if (this.run <= MAX_RUN) this.cuts++;
    }
    if (first === n) {
      this.run = carried;
      return this.joined(chunk, drops);
    }
    let covered = first + 1;
    let tail = 0;
    for (let p = covered; p < n; p += PROBE) {
      if (p < covered || !plainAt(chunk, p)) continue;
      let start = p;
      while (start > covered && plainAt(chunk, start - 1)) start--;
      let end = p + 1;
      while (end < n && plainAt(chunk, end)) end++;
      covered = end;
      if (end - start > MAX_RUN) {
        drop(start + MAX_RUN, end);
        this.cuts++;
      }
      if (end === n) tail = end - start;
    }
    // A run at the end that no probe met is shorter than PROBE.
    if (tail === 0) for (let i = n - 1; i >= covered && plainAt(chunk, i); i--) tail++;
    this.run = tail;
    return this.joined(chunk, drops);
  }

  private joined(chunk: string, drops: readonly [number, number][]): string {
    if (drops.length === 0) return chunk;
    let out = "";
    let at = 0;
    for (const [from, to] of drops) {
      out += chunk.slice(at, from);
      at = to;
    }
    return out + chunk.slice(at);
  }
}
