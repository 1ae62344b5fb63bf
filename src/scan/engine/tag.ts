// A tag: how it is written (the marker, a tag's text) and what the engine answers for a file,
// as plain data (cached, sent between threads). Indexes are JS string (UTF-16) indexes, like
// web-tree-sitter's.
import type { FileOutline, Span } from "./spans.js";

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

export interface RawTag {
  line: number;
  column: number;
  /** Where the tag itself is written. */
  tag_line: number;
  tag_column: number;
  project: string;
  id: string;
  symbol: string | null;
  kind: string | null;
  is_test: boolean;
  /** A tag in a comment or docstring: it makes a code reference. */
  reference: boolean;
  /** Why the tag (reference or not) deserves a warning; null when it doesn't. */
  warning: string | null;
  /** A symbol reference's definition: first decorator, attribute or name line to last line. */
  span?: Span;
}

/** A problem that doesn't depend on a tag's project (a malformed tag). */
export interface RawDiagnostic {
  line: number;
  column: number;
  message: string;
}

export interface TextScan {
  /** The language actually used (a fallback grammar may have replaced the first choice). */
  language: string;
  tags: RawTag[];
  diagnostics: RawDiagnostic[];
  /** Definition spans for find_code_references; absent when the file wasn't parsed. */
  outline?: FileOutline;
}

export const MESSAGES = {
  inString: "tag in a string literal is not a tag",
  inCode: "tag in code is not a tag",
  malformed: 'malformed tag: expected <project>#<ID> after "speky:"',
  parseErrorComment: "parse error around this tag: reported without a symbol",
  parseErrorCode: "parse error around this tag: it is not in a comment, so it is not a tag",
  noGrammar: "no grammar for this file type: tag not scanned",
  notText: "not a text file (NUL byte): tag not scanned",
  untitledTest:
    "tag inside a test whose title is computed: no test result can be matched to it; give the test a literal title or tag the enclosing describe",
} as const;
