// Answers memoized per model. A model is immutable and swapped whole, and every tool is a
// pure function of (model, arguments), so an answer computed once stays right for as long
// as its model lives; the WeakMap lets it go with the model. The large answers (every
// requirement, the coverage buckets) cost tens of milliseconds to build and serialize, and
// agents ask them again and again.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Model } from "../model/model.js";

/** Characters of answer text kept per model; the least recently used go first past it. */
const BUDGET = 32 * 1024 * 1024;
/**
 * What an entry costs besides its text, in the same unit: its key, its structuredContent (as
 * large as the text) and the objects around them. Without it, small answers (an unknown ID's
 * error) counted ~50 each and a client sending distinct arguments grew the cache by ~2 KB a
 * call, unbounded in practice (hundreds of thousands of entries before the first eviction).
 */
const ENTRY_OVERHEAD = 2048;

interface Entry {
  result: CallToolResult;
  size: number;
}

class Lru {
  private entries = new Map<string, Entry>();
  private size = 0;

  get(key: string): CallToolResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.result;
  }

  set(key: string, result: CallToolResult): void {
    const text = result.content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0);
    const size = 2 * text + key.length + ENTRY_OVERHEAD;
    if (size > BUDGET) return;
    this.entries.set(key, { result, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= BUDGET) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }
}

const caches = new WeakMap<Model, Lru>();

export function cachedAnswer(model: Model, key: string, compute: () => CallToolResult): CallToolResult {
  let cache = caches.get(model);
  if (!cache) caches.set(model, (cache = new Lru()));
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compute();
  cache.set(key, result);
  return result;
}
