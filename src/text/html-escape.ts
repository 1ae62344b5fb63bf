// Everything a repository writes (IDs, titles, texts, file names, messages, URLs) is hostile
// input to the report: it reaches HTML only through these functions.

import { escapeChar, UNSAFE_BUT_LINES } from "../diagnostics.js";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** HTML's five, and (shown as escapeControl shows them) the control and bidirectional characters but tabs and line breaks. */
const HTML_UNSAFE = new RegExp(`[&<>"'${UNSAFE_BUT_LINES}]`, "g");

/** Text or attribute value, safe in either place (quotes escaped too); no text reorders what is around it. */
// speky:speky-ts#REPORT-SAFE
// speky:speky-ts#SEC-BIDI-ESCAPE
export function esc(text: string | number): string {
  return String(text).replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] ?? escapeChar(c));
}

/**
 * JSON inside `<script type="application/json">`: `<` is escaped so that no `</script>` or
 * `<!--` in a title can end the block; U+2028/U+2029 for old parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A link target from the repository: http(s) only (the one check, shared with the Markdown). */
export { safeHttpUrl } from "../text/markdown-inline.js";
