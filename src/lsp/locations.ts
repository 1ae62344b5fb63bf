// Between the editor's coordinates and ours: file URIs and absolute paths, a buffer's lines,
// and the LSP range of an ID written on one line.
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Range } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { IdSpot } from "./spec-index.js";

/** The absolute path of a `file:` URI; null for any other scheme (untitled buffers...). */
export function absOf(uri: string): string | null {
  return uri.startsWith("file:") ? fileURLToPath(uri) : null;
}

export const uriOf = (abs: string): string => pathToFileURL(abs).href;

/** One line of a buffer, without its line break. */
export function lineOf(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, "");
}

export const rangeOf = (s: Pick<IdSpot, "line" | "start" | "end">): Range => ({
  start: { line: s.line, character: s.start },
  end: { line: s.line, character: s.end },
});
