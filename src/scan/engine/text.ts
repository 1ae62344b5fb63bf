// Tag syntax in decoded text. Indexes are JS string (UTF-16) indexes, like web-tree-sitter's.

export { type Position, TextPositions } from "../../text-positions.js";

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

/** Whitespace holding an empty line: what breaks adjacency between a comment and a definition. */
export function hasBlankLine(gap: string): boolean {
  return /\n[ \t\f\v\r]*\n/.test(gap);
}
