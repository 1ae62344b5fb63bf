// One file's bytes → its tags. Pure and serialisable (plain data in and out), so a worker
// pool or a cache can wrap it.

import { TextPositions } from "../../text-positions.js";
import { languageForPath, languageForShebang } from "../grammar/languages.js";
import { GrammarFailure, ParseBoundExceeded } from "../grammar/runtime.js";
import { capWarnings, WarningCap } from "./cap.js";
import { headText, largeFileTags } from "./large-file.js";
import { scanText } from "./scan-text.js";
import type { FileOutline } from "./spans.js";
import { MARKER, MESSAGES, markerIndexes, type RawDiagnostic, type RawTag, tagAt } from "./tag.js";
import { freeTag } from "./tags.js";

export interface FileResult {
  /** null when no grammar handles the file (or it isn't text). */
  language: string | null;
  tags: RawTag[];
  diagnostics: RawDiagnostic[];
  /** Definition spans around the tags (spans.ts); absent when the file wasn't parsed. */
  outline?: FileOutline;
}

const MARKER_BYTES = Buffer.from(MARKER);
const SNIFF_BYTES = 8192;

/**
 * Larger files holding the marker are not parsed: parsing and querying cost 1 to 2 s per MB
 * (minified bundles are the worst), so a 10 MB bundle would hold a commit hook for half a
 * minute. Their tags are each reported with a warning instead. No hand-written source is
 * that big.
 */
export const MAX_PARSE_BYTES = 4 * 1024 * 1024;

export function tooLargeMessage(bytes: number): string {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
  return `file too large to parse (${mb(bytes)} MB; the limit is ${mb(MAX_PARSE_BYTES)} MB): tag not scanned`;
}
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

/**
 * The text of the file, or null when it isn't text (a NUL byte near its start). Bytes that
 * aren't UTF-8 (a Latin-1 comment) become U+FFFD, one per invalid sequence (speky decodes
 * with `errors='replace'` too): the tags around them are still found. A lone carriage return
 * (classic Mac line ends) is made a line feed: grammars and positions break lines at line
 * feeds only, and an editor shows it as a line end. Same length, so every index stays valid.
 */
// speky:speky-ts#NAV-LATIN1
export function decode(buffer: Buffer): string | null {
  if (buffer.subarray(0, SNIFF_BYTES).includes(0)) return null;
  const text = decoder.decode(buffer);
  return text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
}

/**
 * Tag-shaped text found without a grammar: each one is reported or counted, never silently
 * dropped; capped while found, so a million of them never become a million objects.
 */
export function unscanned(text: string, warning: string, atFileLevel: boolean, reference = false): RawTag[] {
  const positions = atFileLevel ? null : new TextPositions(text);
  const cap = new WarningCap();
  const tags: RawTag[] = [];
  for (const at of markerIndexes(text)) {
    const tag = tagAt(text, at);
    if (!tag) continue;
    const kept = cap.admit(freeTag(tag, positions ? positions.at(at) : { line: 0, column: 0 }, reference, warning));
    if (kept) tags.push(kept);
  }
  return [...tags, ...cap.summaryTags()];
}

async function scanBuffer(absPath: string, buffer: Buffer): Promise<FileResult> {
  if (!buffer.includes(MARKER_BYTES)) return { language: languageForPath(absPath), tags: [], diagnostics: [] };
  if (buffer.length > MAX_PARSE_BYTES && !buffer.subarray(0, SNIFF_BYTES).includes(0)) {
    // Too large to parse: its tags found in its bytes, never decoded whole (large-file.ts).
    const language = languageForPath(absPath) ?? languageForShebang(headText(buffer));
    const warning = language ? tooLargeMessage(buffer.length) : MESSAGES.noGrammar;
    return { language, tags: largeFileTags(buffer, warning), diagnostics: [] };
  }
  const text = decode(buffer);
  if (text === null) {
    // Read as latin1 only to find which projects the unreadable tags name.
    return { language: null, tags: unscanned(buffer.toString("latin1"), MESSAGES.notText, true), diagnostics: [] };
  }
  const language = languageForPath(absPath) ?? languageForShebang(text);
  if (!language) return { language: null, tags: unscanned(text, MESSAGES.noGrammar, false), diagnostics: [] };
  try {
    return await scanText(absPath, language, text);
  } catch (err) {
    if (!(err instanceof ParseBoundExceeded || err instanceof GrammarFailure)) throw err;
    return { language, tags: unscanned(text, unparsedMessage(err), false, true), diagnostics: [] };
  }
}

// speky:speky-ts#GRAM-FALLBACK
/**
 * A grammar that fails or runs past the parse bound costs the file its symbols, never its
 * tags: each becomes a free reference where it is written, with this warning.
 */
export function unparsedMessage(err: ParseBoundExceeded | GrammarFailure): string {
  return `${err.message}: tag reported without a symbol`;
}

export async function scanFileBuffer(absPath: string, buffer: Buffer): Promise<FileResult> {
  return capWarnings(await scanBuffer(absPath, buffer));
}
