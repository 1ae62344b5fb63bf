// Answers memoized per model. A model is immutable and swapped whole, and every tool is a
// pure function of (model, arguments), so an answer computed once stays right for as long
// as its model lives; the WeakMap lets it go with the model. The large answers (every
// requirement, the coverage buckets) cost tens of milliseconds to build and serialize, and
// agents ask them again and again.
//
// The lists of paged tools are memoized apart (`cachedListing`): their items are references
// into the model, shaped per page (paging.ts), so a page of 250,000 requirements costs the
// shaping of its own items, not the rebuilding of the whole list.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Model } from "../../model/model.js";
import { Lazy, Listing } from "./paging.js";

/** Characters of answer text kept per model; the least recently used go first past it. */
const BUDGET = 32 * 1024 * 1024;
/**
 * What an entry costs besides its text, in the same unit: its key, its structuredContent (as
 * large as the text) and the objects around them. Without it, small answers (an unknown ID's
 * error) counted ~50 each and a client sending distinct arguments grew the cache by ~2 KB a
 * call, unbounded in practice (hundreds of thousands of entries before the first eviction).
 */
const ENTRY_OVERHEAD = 2048;

interface Entry<V> {
  result: V;
  size: number;
}

class Lru<V> {
  private entries = new Map<string, Entry<V>>();
  private size = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.result;
  }

  set(key: string, result: V): void {
    const size = this.sizeOf(result) + key.length + ENTRY_OVERHEAD;
    if (size > this.budget) return;
    this.entries.set(key, { result, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.budget) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }
}

const answerSize = (result: CallToolResult) => 2 * result.content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0);

/**
 * What a memoized list costs, in the same unit as an answer's characters: a reference (8
 * bytes, 4 characters) per lazy item; an item held as it is (short strings: tags, IDs) is
 * counted as a summary's worth. Lists are kept in a budget of their own, below the answers'.
 */
const LIST_BUDGET = 16 * 1024 * 1024;
function listingSize(listing: Listing | CallToolResult): number {
  if (!(listing instanceof Listing)) return answerSize(listing);
  let size = 0;
  for (const value of Object.values(listing.structured)) {
    if (value instanceof Lazy) size += 4 * value.source.length;
    else if (Array.isArray(value)) size += 64 * value.length;
  }
  return size;
}

const caches = new WeakMap<Model, Lru<CallToolResult>>();
const listings = new WeakMap<Model, Lru<Listing | CallToolResult>>();

/** `compute()` once per model and key, while the model's store keeps it within `budget`. */
function memoized<V>(
  store: WeakMap<Model, Lru<V>>,
  budget: number,
  sizeOf: (value: V) => number,
  model: Model,
  key: string,
  compute: () => V,
): V {
  let cache = store.get(model);
  if (!cache) store.set(model, (cache = new Lru(budget, sizeOf)));
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compute();
  cache.set(key, result);
  return result;
}

export function cachedAnswer(model: Model, key: string, compute: () => CallToolResult): CallToolResult {
  return memoized(caches, BUDGET, answerSize, model, key, compute);
}

/** A paged tool's whole answer (or its error), memoized like answers, in the lists' budget. */
export function cachedListing(model: Model, key: string, compute: () => Listing | CallToolResult): Listing | CallToolResult {
  return memoized(listings, LIST_BUDGET, listingSize, model, key, compute);
}
