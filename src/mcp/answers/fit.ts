// Every MCP answer under one bound. Lists page (paging.ts, resources.ts), but an answer also
// holds what no page cuts: an item's own text, the requirements a test names with their titles,
// its steps. 100 tests naming 1,000 requirements with 6 KB titles gave a get_test of 12 MB
// (issue 25; a 58 MB answer dropped the SDK client). An answer whose JSON passes
// MAX_ANSWER_CHARS is cut until it fits: the largest field first, a list to its first items,
// a text to its beginning, and `_meta` says what was cut and how to get the rest.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { grouped } from "../../quote.js";
import { MAX_PAGE_CHARS } from "./paging.js";

// speky:speky-ts#SEC-ANSWER-FIT
/**
 * Characters of an answer's JSON at most: a page of list items (MAX_PAGE_CHARS) and room for
 * the rest. A tool result holds it twice (structuredContent and its text copy): ~2.3 MB.
 */
export const MAX_ANSWER_CHARS = MAX_PAGE_CHARS + 128 * 1024;

/** `_meta` key of the note saying what an answer had to leave out. */
export const TRUNCATED_META_KEY = "speky-ts/truncated";

/** Cuts told in one note, at most (then a count). */
const NOTES = 10;
/** A part kept is never cut below this: smaller, it is left out whole. */
const MIN_PART = 256;

const sizeOf = (value: unknown) => JSON.stringify(value)?.length ?? 0;

/** `value` (a JSON value) in at most `max` characters of JSON, the cuts told in `notes`. */
function shrink(value: unknown, max: number, at: string, notes: string[]): unknown {
  if (typeof value === "string") {
    // Escapes may make the JSON longer than the text: cut, measure, cut again.
    let keep = Math.max(0, max - 3);
    let cut = value.slice(0, keep);
    while (keep > 0 && sizeOf(`${cut}…`) > max) cut = value.slice(0, (keep = Math.floor(keep * 0.9)));
    notes.push(`${at}: the first ${grouped(cut.length)} of ${grouped(value.length)} characters`);
    return `${cut}…`;
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    let used = 2;
    for (const item of value) {
      const size = sizeOf(item) + 1;
      if (used + size <= max) {
        kept.push(item);
        used += size;
        continue;
      }
      if (max - used > MIN_PART) {
        kept.push(shrink(item, max - used - 1, `${at}[${kept.length}]`, notes));
      }
      break;
    }
    if (kept.length < value.length) notes.push(`${at}: ${grouped(kept.length)} of ${grouped(value.length)} items`);
    return kept;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const sizes = new Map(Object.keys(out).map((k) => [k, sizeOf(out[k])]));
    let total = sizeOf(out);
    // The largest field first, until the whole fits; a field is cut once.
    for (const key of [...sizes.keys()].sort((a, b) => sizes.get(b)! - sizes.get(a)!)) {
      if (total <= max) break;
      const size = sizes.get(key)!;
      const room = Math.max(0, size - (total - max));
      out[key] = shrink(out[key], room, at === "" ? key : `${at}.${key}`, notes);
      total += sizeOf(out[key]) - size;
    }
    return out;
  }
  return value;
}

/**
 * The tool result for `content`: as it is when its JSON is at most MAX_ANSWER_CHARS (the
 * common case costs nothing more: the text is made once), else cut to fit, with the note.
 */
export function boundedResult(content: object, what = "this answer"): CallToolResult {
  const text = JSON.stringify(content);
  if (text.length <= MAX_ANSWER_CHARS) return { content: [{ type: "text", text }], structuredContent: content as Record<string, unknown> };
  const notes: string[] = [];
  const fitted = shrink(content, MAX_ANSWER_CHARS, "", notes) as Record<string, unknown>;
  return {
    content: [{ type: "text", text: JSON.stringify(fitted) }],
    structuredContent: fitted,
    _meta: { [TRUNCATED_META_KEY]: truncationNote(notes, what) },
  };
}

export function truncationNote(notes: string[], what: string): string {
  const told = notes.slice(0, NOTES).join("; ");
  const more = notes.length > NOTES ? `; and ${grouped(notes.length - NOTES)} more cuts` : "";
  return (
    `${what} was cut to ${grouped(MAX_ANSWER_CHARS)} characters of JSON: ${told}${more}. ` +
    "The spec files hold the whole text; list tools and nextCursor give every item."
  );
}
