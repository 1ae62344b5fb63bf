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
//
// The whole answer is never built as objects or text when it is large: a tool gives its long
// lists as `lazy(source, shape)` (the model's own items, in answer order), and only the items of
// the page asked for are shaped. Its digest is computed by streaming the same JSON text the
// whole answer would have, item by item, so cursors are what they were when answers were whole.
import { createHash } from "node:crypto";
import { z } from "zod";
import { quote } from "../../quote.js";

export const pagingInput = {
  limit: z.number().int().min(1).optional().describe("Page size: at most this many items, and a nextCursor to call again for the rest"),
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

// speky:speky-ts#MEM-LAZY-PAGES
/**
 * A list field whose items are shaped only when a page (or a whole answer) needs them: on
 * 250,000 requirements a shaped list is ~40 MB of objects, its source ~2 MB of references.
 */
export class Lazy<S = unknown, T = unknown> {
  constructor(
    readonly source: readonly S[],
    readonly shape: (item: S) => T,
  ) {}
}

/**
 * A list of `shape(item)` for each source item, typed as that list: it is only ever read
 * through `pageOf`/`materialize` (a paged tool's `run` output goes nowhere else).
 */
export function lazy<S, T>(source: readonly S[], shape: (item: S) => T): T[] {
  return new Lazy(source, shape) as unknown as T[];
}

const sizeOf = (list: unknown): number => (list instanceof Lazy ? list.source.length : ((list ?? []) as unknown[]).length);

function itemOf(list: unknown, i: number): unknown {
  return list instanceof Lazy ? list.shape(list.source[i]) : (list as unknown[])[i];
}

/** The answer with every lazy list shaped: what `JSON.stringify` and clients see. */
export function materialize(structured: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(structured)) {
    const value = structured[key];
    out[key] = value instanceof Lazy ? value.source.map((item) => value.shape(item)) : value;
  }
  return out;
}

/**
 * Feeds `sink` the text `JSON.stringify(materialize(structured))` would give, in pieces;
 * stops early when `sink` returns false.
 */
function streamJson(structured: Record<string, unknown>, sink: (piece: string) => boolean): void {
  if (!sink("{")) return;
  let first = true;
  for (const key of Object.keys(structured)) {
    const value = structured[key];
    if (!(value instanceof Lazy)) {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) continue;
      if (!sink(`${first ? "" : ","}${JSON.stringify(key)}:${text}`)) return;
      first = false;
      continue;
    }
    if (!sink(`${first ? "" : ","}${JSON.stringify(key)}:[`)) return;
    first = false;
    // A few hundred items per JSON.stringify (their array's text without its brackets is the
    // items' texts joined by commas): one call per item allocated ~1 KB each.
    for (let from = 0; from < value.source.length; from += STREAM_BATCH) {
      const batch = value.source.slice(from, from + STREAM_BATCH).map((item) => value.shape(item));
      const text = JSON.stringify(batch);
      if (!sink(`${from === 0 ? "" : ","}${text.slice(1, -1)}`)) return;
    }
    if (!sink("]")) return;
  }
  sink("}");
}

/** Items serialized at a time when streaming a whole answer's text (~50 KB of JSON). */
const STREAM_BATCH = 400;

/** Characters of JSON text hashed at a time. */
const HASH_CHUNK = 64 * 1024;

/** A whole answer, memoized per model: its lists, and what paging learns about them once. */
export class Listing {
  private digestValue: string | undefined;
  private fitsValue: boolean | undefined;

  constructor(readonly structured: Record<string, unknown>) {}

  /** Digest of the whole answer's JSON text. */
  digest(): string {
    if (this.digestValue === undefined) {
      const hash = createHash("sha256");
      // Hashed in chunks: an update per item cost ~1 KB of buffers each (300 MB for 250,000).
      let pending = "";
      streamJson(this.structured, (piece) => {
        pending += piece;
        if (pending.length >= HASH_CHUNK) {
          hash.update(pending);
          pending = "";
        }
        return true;
      });
      this.digestValue = hash.update(pending).digest("base64url").slice(0, 16);
    }
    return this.digestValue;
  }

  /** Whether the whole answer's JSON text is at most MAX_PAGE_CHARS (measured without building it). */
  fits(): boolean {
    if (this.fitsValue === undefined) {
      let chars = 0;
      streamJson(this.structured, (piece) => (chars += piece.length) <= MAX_PAGE_CHARS);
      this.fitsValue = chars <= MAX_PAGE_CHARS;
    }
    return this.fitsValue;
  }

  /** Items in all the list fields. */
  total(fields: readonly string[]): number {
    return fields.reduce((n, f) => n + sizeOf(this.structured[f]), 0);
  }
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
  throw new CursorError(`Invalid cursor ${quote(cursor)}: pass a nextCursor exactly as received`);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

/**
 * One page of a whole answer. `fields` are its list fields, in output order; `defaultLimit`
 * the page size without `limit` (undefined: DEFAULT_PAGE_ITEMS). Answers `whole` when nothing
 * is cut, so that an unpaged call answers byte for byte as before (`materialize` it).
 */
export function pageOf(
  tool: string,
  query: Record<string, unknown>,
  full: Listing,
  fields: readonly string[],
  request: PageRequest,
  defaultLimit?: number,
): { whole: true } | { structured: Record<string, unknown> } {
  const structured = full.structured;
  const total = full.total(fields);
  const queryDigest = digest(`${tool}\0${JSON.stringify(query)}`);

  let offset = 0;
  if (request.cursor !== undefined) {
    const cursor = decode(request.cursor);
    if (cursor.q !== queryDigest) {
      throw new CursorError(`Invalid cursor: it was issued for other arguments of ${tool}; pass the same ones`);
    }
    if (cursor.o > total || cursor.a !== full.digest()) {
      throw new CursorError(
        "Stale cursor: the answer changed since it was issued (the specification was reloaded); call again without cursor",
      );
    }
    offset = cursor.o;
  }
  const size = request.limit ?? defaultLimit ?? DEFAULT_PAGE_ITEMS;
  // Nothing to cut (an item's details without code references): whole, however long its texts.
  if (offset === 0 && (total === 0 || (size >= total && full.fits()))) return { whole: true };

  // The page's items, shaped once: to measure them and to answer them.
  const items: unknown[] = [];
  const last = Math.min(total, offset + size);
  let chars = 0;
  let field = 0;
  let start = 0;
  for (let index = offset; index < last; index++) {
    while (index >= start + sizeOf(structured[fields[field]])) start += sizeOf(structured[fields[field++]]);
    const item = itemOf(structured[fields[field]], index - start);
    chars += JSON.stringify(item).length + 1;
    if (chars > MAX_PAGE_CHARS && index > offset) break;
    items.push(item);
  }
  const end = offset + items.length;
  const windows = new Map<string, unknown[]>();
  start = 0;
  for (const f of fields) {
    const size = sizeOf(structured[f]);
    const from = Math.max(start, offset) - offset;
    windows.set(f, items.slice(from, Math.max(from, Math.min(start + size, end) - offset)));
    start += size;
  }
  // In the whole answer's key order, as the whole answer would have it.
  const page: Record<string, unknown> = {};
  for (const key of Object.keys(structured)) page[key] = windows.get(key) ?? structured[key];
  // A list the whole answer leaves out (optional and empty) stays out of its pages.
  for (const [f, window] of windows) if (f in structured || window.length > 0) page[f] = window;
  if (end < total) page.nextCursor = encodeCursor({ o: end, q: queryDigest, a: full.digest() });
  return { structured: page };
}
