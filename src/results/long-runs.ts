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

const SIGNIFICANT = /[<>&;"'=/?!\]\-\n\r]/g;

// speky:speky-ts#RESULTS-LINEAR
export class LongRunCutter {
  /** Length of the current run (across chunks). */
  private run = 0;
  /** Runs cut so far. */
  cuts = 0;

  /** The chunk with its runs cut (the chunk itself when none is); call with every chunk in order. */
  cut(chunk: string): string {
    let out = "";
    /** Where the text still to output starts; -1 while a run is being dropped. */
    let from = this.run > MAX_RUN ? -1 : 0;
    let at = 0;
    SIGNIFICANT.lastIndex = 0;
    for (;;) {
      const found = SIGNIFICANT.exec(chunk);
      const end = found ? found.index : chunk.length;
      // The run [at, end) continues one of `this.run` characters.
      const length = end - at;
      if (this.run <= MAX_RUN && this.run + length > MAX_RUN) {
        this.cuts++;
        out += chunk.slice(from, at + MAX_RUN - this.run);
        from = -1;
      }
      this.run += length;
      if (!found) return from < 0 ? out : from === 0 ? chunk : out + chunk.slice(from);
      if (from < 0) from = end;
      this.run = 0;
      at = end + 1;
    }
  }
}
