// Repository text inside Markdown (speky diff's pull-request comment, the report's summary):
// two forms, and nothing else. A leaf module: it imports nothing of a command or a surface.
//
// - `codeSpan` for IDs, paths and symbols: the text exactly as written, in a fence of backticks
//   longer than any run inside it. Nothing in a code span formats, links or mentions.
// - `plainText` for spec text and messages: the text as written, with a backslash before only the
//   characters that could start markup where they stand (see docs/changes.md, "Markdown"), so that
//   "The cart sums its lines." stays as it is while `*x*`, `[a](b)`, `<b>`, `@team`, `https://x`,
//   `www.x.org`, `x.com` or `a@b.io` can neither format, link nor mention.
// And `safeHttpUrl`, the one check of a link target from the repository (http(s) only).
// Both forms flatten line breaks (no text starts a line of its own) and show control and bidirectional
// characters as their visible escapes (`\x1b`, `\u202e`), as the terminal output does.
import { escapeControl } from "../diagnostics.js";

const LINE_BREAKS = /[\r\n\u2028\u2029\u0085\v\f]+/g;

/** One line of text, control and bidi characters shown as escapes. */
export function oneLine(text: string): string {
  return escapeControl(text.replace(LINE_BREAKS, " "));
}

// speky:speky-ts#MD-CODE-SPAN
/** An ID, a path or a symbol as inline code, in a fence longer than any backtick run inside. */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  let longest = 0;
  for (const run of flat.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(longest + 1);
  // A code span's content loses one space at each end when it has one at both.
  const pad = /^[` ]|[` ]$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Top-level domains a linkifier takes without a scheme (linkify-it's list and any two letters). */
const FUZZY_TLD = "(?:[a-z]{2}|biz|com|edu|gov|net|org|pro|web|xxx|aero|asia|coop|info|museum|name|shop|rf)(?![\\p{L}\\p{N}_-])";

/**
 * What could be markup where it stands: emphasis, code, links, images, HTML, entities, tables,
 * strikethrough and math marks; an underscore only at a word's edge (inside a word it formats
 * nothing); `@` (mentions, e-mail autolinks); the `:` of `x://` and `mailto:`; `//`; the `.`
 * of a `www.` name or before a top-level domain (autolinks without a scheme).
 */
const MARKUP = new RegExp(
  [
    "[\\\\`*[\\]<|~$@]",
    "&(?=#?[\\p{L}\\p{N}]+;)",
    "(?<![\\p{L}\\p{N}])_|_(?![\\p{L}\\p{N}])",
    ":(?=\\/)",
    "(?<=mailto):",
    "\\/(?=\\/)",
    "(?<=www)\\.",
    `(?<=[\\p{L}\\p{N}])\\.(?=${FUZZY_TLD})`,
  ].join("|"),
  "giu",
);

// speky:speky-ts#MD-PLAIN-TEXT
/** Spec text or a message as Markdown text that reads as written and can neither format, link nor mention. */
export function plainText(text: string): string {
  return oneLine(text).replace(MARKUP, "\\$&");
}

/** A link target from the repository (source_links): only http(s), never javascript: or data:. */
export function safeHttpUrl(url: string | undefined): string | null {
  if (!url || !/^https?:\/\/[^\s<>"'`]+$/i.test(url)) return null;
  return url;
}
