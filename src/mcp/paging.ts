// Pagination of list answers, the same for every tool that returns lists: optional `limit`
// (page size) and `cursor` (the previous page's `nextCursor`) arguments, and `nextCursor` in
// the answer when it was cut. Without them the whole answer comes back, exactly as speky gives
// it, as long as it is of a sane size (DEFAULT_PAGE_ITEMS, MAX_PAGE_CHARS): past that, the
// first page and a nextCursor, so that no answer grows with the project without bound.
//
// A tool with several lists (list_all_ids: requirements, tests; test_plan_coverage: four
// buckets) pages over their concatenation, in the order of its output fields: a page holds at
// most `limit` items in all, every list field is present in every page (empty when the window
// lies elsewhere), and concatenating each field over the pages gives the whole answer back.
//
// A cursor is opaque to clients: base64url of {offset, digest of the tool and its other
// arguments, digest of the whole answer}. Pages are cut from the whole answer, computed (and
// memoized) per model, so a cursor stays valid across reloads that leave the answer unchanged;
// when a reload changed it, the cursor is refused rather than serving a page of another list.
import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const pagingInput = {
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("Page size: at most this many items, and a nextCursor to call again for the rest"),
  cursor: z.string().optional().describe("The nextCursor of the previous page, with the same other arguments"),
};

export const pagingOutput = {
  nextCursor: z.string().optional().describe("Present when the answer was cut: pass it as cursor for the next page"),
};

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/** Splits the paging arguments from the tool's own. */
export function splitPaging(args: Record<string, unknown>): { query: Record<string, unknown>; page: PageRequest } {
  const { limit, cursor, ...query } = args;
  return {
    query,
    page: {
      ...(typeof limit === "number" ? { limit } : {}),
      ...(typeof cursor === "string" ? { cursor } : {}),
    },
  };
}

interface Cursor {
  o: number;
  q: string;
  a: string;
}

// speky:speky-ts#SEC-ANSWER-BOUNDS
/**
 * Items in an answer when the call gives no `limit`. Projects speky users have hold hundreds
 * to a few thousand requirements: they keep whole lists; 250,000 get pages.
 */
export const DEFAULT_PAGE_ITEMS = 5000;
/**
 * Characters of list items in one page, whatever `limit` says: 1 MiB of JSON (the text block
 * repeats it once more). 5,000 typical summaries (~100 characters) fit; long items make pages
 * shorter, never answers larger.
 */
export const MAX_PAGE_CHARS = 1024 * 1024;

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 16);

const answerDigests = new WeakMap<CallToolResult, string>();

function answerDigest(full: CallToolResult): string {
  let d = answerDigests.get(full);
  if (d === undefined) {
    const text = full.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    answerDigests.set(full, (d = digest(text)));
  }
  return d;
}

export class CursorError extends Error {}

function decode(cursor: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<Cursor>;
    if (Number.isInteger(value.o) && value.o! >= 0 && typeof value.q === "string" && typeof value.a === "string") {
      return value as Cursor;
    }
  } catch {
    // reported below
  }
  throw new CursorError(`Invalid cursor '${cursor}': pass a nextCursor exactly as received`);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

/**
 * One page of a whole answer. `fields` are its list fields, in output order; `defaultLimit`
 * the page size without `limit` (undefined: everything). Returns `full` itself when nothing
 * is cut, so an unpaged call answers byte for byte as before.
 */
export function pageOf(
  tool: string,
  query: Record<string, unknown>,
  full: CallToolResult,
  fields: readonly string[],
  request: PageRequest,
  defaultLimit?: number,
): { structured: Record<string, unknown> } | { whole: CallToolResult } {
  const structured = full.structuredContent as Record<string, unknown>;
  const lists = fields.map((f) => (structured[f] ?? []) as unknown[]);
  const total = lists.reduce((n, l) => n + l.length, 0);
  const queryDigest = digest(`${tool}\0${JSON.stringify(query)}`);

  let offset = 0;
  if (request.cursor !== undefined) {
    const cursor = decode(request.cursor);
    if (cursor.q !== queryDigest) {
      throw new CursorError(`Invalid cursor: it was issued for other arguments of ${tool}; pass the same ones`);
    }
    if (cursor.a !== answerDigest(full) || cursor.o > total) {
      throw new CursorError(
        "Stale cursor: the answer changed since it was issued (the specification was reloaded); call again without cursor",
      );
    }
    offset = cursor.o;
  }
  const size = request.limit ?? defaultLimit ?? DEFAULT_PAGE_ITEMS;
  if (offset === 0 && size >= total && wholeChars(full) <= MAX_PAGE_CHARS) return { whole: full };

  const end = pageEnd(lists, offset, Math.min(total, offset + size));
  const page: Record<string, unknown> = { ...structured };
  let start = 0;
  for (const [i, field] of fields.entries()) {
    const list = lists[i];
    page[field] = list.slice(Math.max(0, offset - start), Math.max(0, end - start));
    start += list.length;
  }
  if (end < total) page.nextCursor = encodeCursor({ o: end, q: queryDigest, a: answerDigest(full) });
  return { structured: page };
}

function wholeChars(full: CallToolResult): number {
  return full.content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0);
}

/** Where a page from `offset` ends: at `end` at most, and before its items pass MAX_PAGE_CHARS (one item at least). */
function pageEnd(lists: unknown[][], offset: number, end: number): number {
  let chars = 0;
  let index = 0;
  for (const list of lists) {
    for (const item of list) {
      if (index >= offset) {
        if (index >= end) return end;
        chars += JSON.stringify(item).length + 1;
        if (chars > MAX_PAGE_CHARS && index > offset) return index;
      }
      index++;
    }
  }
  return end;
}
