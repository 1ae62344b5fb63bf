// Tag syntax and positions in decoded text. Indexes are JS string (UTF-16) indexes, like
// web-tree-sitter's; reported columns are 1-based code points.

export const MARKER = "speky:";

/** Sticky: matched at the index of a MARKER occurrence. */
const TAG = /speky:([A-Za-z0-9_.-]+)#([A-Za-z0-9_-]+)/y;

export interface TagText {
  project: string;
  id: string;
}

export function tagAt(text: string, index: number): TagText | null {
  TAG.lastIndex = index;
  const m = TAG.exec(text);
  return m ? { project: m[1], id: m[2] } : null;
}

/**
 * Where MARKER occurs, except where no tag is attempted: URIs of its scheme (MARKER then
 * `//`) and the notation of tags in documentation (MARKER then `<project>`).
 */
export function markerIndexes(text: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(MARKER); i >= 0; i = text.indexOf(MARKER, i + MARKER.length)) {
    const after = i + MARKER.length;
    if (!text.startsWith("//", after) && !text.startsWith("<", after)) found.push(i);
  }
  return found;
}

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

/** Whitespace holding an empty line: what breaks adjacency between a comment and a definition. */
export function hasBlankLine(gap: string): boolean {
  return /\n[ \t\f\v\r]*\n/.test(gap);
}
