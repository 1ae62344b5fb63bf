// Repository text inside Markdown (the report's summary, speky diff's pull-request comment):
// it can neither format, link, mention (@someone), inject HTML nor start a line of its own.
import { escapeControl } from "../diagnostics.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;" };

/** Inline Markdown text: every ASCII punctuation escaped (in one pass), line breaks flattened. */
export function mdText(text: string): string {
  const flat = escapeControl(text.replace(/[\r\n\u2028\u2029\u0085\v\f]+/g, " "));
  return flat.replace(/[!-/:-@[-`{-~]/g, (c) => ENTITIES[c] ?? `\\${c}`);
}

/**
 * Inline code: the text as written, never Markdown (no escape, link, HTML or mention works in a
 * code span), in a fence of backticks longer than any run inside it; line breaks flattened.
 */
export function mdCode(text: string): string {
  // Control and bidirectional characters shown as escapeControl shows them (`\u202e`).
  const flat = escapeControl(text.replace(/[\r\n\u2028\u2029\u0085\v\f]+/g, " "));
  let longest = 0;
  for (const run of flat.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(longest + 1);
  // A code span's content loses one space at each end when it has one at both.
  const pad = /^[` ]|[` ]$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}
