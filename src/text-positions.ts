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

  at(index: number): Position {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: codePoints(this.text, this.lineStarts[lo], index) + 1 };
  }

  /** Text from the start of the line holding `index` up to `index`. */
  linePrefix(index: number): string {
    return this.text.slice(this.lineStarts[this.at(index).line - 1], index);
  }
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
