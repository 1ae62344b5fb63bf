// Offsets in decoded text to the positions we report: 1-based lines and 1-based columns
// in code points, the same for spec files and source files.

export interface Position {
  line: number;
  column: number;
}

/** Lines break at "\n" only, as in tree-sitter's rows. */
export class TextPositions {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.lineStarts.push(i + 1);
  }

  /**
   * The last position counted: tags are located in text order, so the column of the next one
   * on the same line is counted on from there (a minified line with 100,000 tags stays linear).
   */
  private last = { line: 0, index: 0, column: 0 };

  /** 0-based line of `index`. */
  private lineOf(index: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  at(index: number): Position {
    const line = this.lineOf(index) + 1;
    const { last, text } = this;
    const onward = last.line === line && last.index <= index && !splitsPair(text, last.index);
    const column = onward ? last.column + codePoints(text, last.index, index) : codePoints(text, this.lineStarts[line - 1], index) + 1;
    this.last = { line, index, column };
    return { line, column };
  }

  /** Text from the start of the line holding `index` up to `index`. */
  linePrefix(index: number): string {
    return this.text.slice(this.lineStarts[this.lineOf(index)], index);
  }
}

/** Whether `index` falls between the two halves of a surrogate pair (counting can't start there). */
function splitsPair(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  const b = text.charCodeAt(index - 1);
  return c >= 0xdc00 && c <= 0xdfff && b >= 0xd800 && b <= 0xdbff;
}

function codePoints(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
