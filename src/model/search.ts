// Ranked full-text search over the specs ("is there already a requirement about timeouts?").
// BM25 over weighted fields; the index is built once per model, on first use.
import { nowMs } from "../clock.js";
import { compareStrings } from "../diagnostics.js";
import { ownString } from "../loader/own-strings.js";
import type { Item } from "../loader/types.js";
import type { Model } from "./model.js";

export interface SearchHit {
  id: string;
  kind: Item["kind"];
  category: string;
  short?: string;
  /** Rounded to 3 decimals so output stays stable across platforms. */
  score: number;
}

/**
 * An inverted index in typed arrays: for term t, the documents containing it are
 * `docs[start[t] .. start[t + 1])`, with their weighted frequencies in `weights`. On 275,000
 * items it is ~60 MB; one Map of terms per document (as it was) took ~450 MB.
 */
interface Index {
  items: Item[];
  /** The terms in code-point order, built on the first prefix search: a prefix is a range of it. */
  sorted?: string[];
  /** Terms per document (weighted field lengths count each word once). */
  lengths: Uint32Array;
  /** term → its number; the numbers index `start`. */
  terms: Map<string, number>;
  start: Uint32Array;
  docs: Uint32Array;
  /**
   * Sums of field weights, times `scale`'s inverse: twice the weight (an integer, as weights
   * are multiples of 0.5) in 16 bits when every one fits, else the weight itself in a float32
   * (exact for these sums either way).
   */
  weights: Uint16Array | Float32Array;
  scale: number;
  averageLength: number;
}

// The short text says what an item is about; the long text says much else besides.
const WEIGHTS = { id: 6, short: 3, client_statement: 1.5, long: 1, steps: 1 } as const;
const K1 = 1.2;
const B = 0.75;

/** Lower-case words without their accents ("Délai" → "delai"): a decomposed accent would split the word. */
export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

function fieldsOf(item: Item): [keyof typeof WEIGHTS, string][] {
  const fields: [keyof typeof WEIGHTS, string][] = [
    ["id", item.id.replace(/[-_]/g, " ")],
    ["short", item.short ?? ""],
    ["long", item.long],
  ];
  if (item.kind === "requirement") fields.push(["client_statement", item.client_statement ?? ""]);
  else fields.push(["steps", item.steps.map((s) => [s.action, s.run, s.expected].filter(Boolean).join(" ")).join(" ")]);
  return fields;
}

/** Each term of a document with its weighted frequency, in first-seen order, and its number of words. */
function countTerms(item: Item): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const [field, text] of fieldsOf(item)) {
    for (const term of tokenize(text)) {
      counts.set(term, (counts.get(term) ?? 0) + WEIGHTS[field]);
      length++;
    }
  }
  return { counts, length };
}

/**
 * Two passes over the documents, tokenizing each twice: the first sizes the postings, the
 * second fills them in place, so the index never holds a growing or second copy of them.
 */
function buildIndex(model: Model): Index {
  const items = [...model.byId.values()];
  const lengths = new Uint32Array(items.length);
  const terms = new Map<string, number>();
  let frequencies = new Uint32Array(1024);
  let total = 0;
  let heaviest = 0;
  let halvesExact = true;
  for (let doc = 0; doc < items.length; doc++) {
    const { counts, length } = countTerms(items[doc]);
    lengths[doc] = length;
    total += length;
    for (const [term, weight] of counts) {
      heaviest = Math.max(heaviest, weight);
      halvesExact &&= Number.isInteger(weight * 2);
      let t = terms.get(term);
      // A term is kept as a string of its own, not as a view into the text it was found in.
      if (t === undefined) terms.set(ownString(term), (t = terms.size));
      if (t === frequencies.length) {
        const grown = new Uint32Array(frequencies.length * 2);
        grown.set(frequencies);
        frequencies = grown;
      }
      frequencies[t]++;
    }
  }
  const start = new Uint32Array(terms.size + 1);
  for (let t = 0; t < terms.size; t++) start[t + 1] = start[t] + frequencies[t];
  const next = start.slice(0, terms.size);
  const docs = new Uint32Array(start[terms.size]);
  const halves = halvesExact && heaviest * 2 <= 0xffff;
  const weights = halves ? new Uint16Array(start[terms.size]) : new Float32Array(start[terms.size]);
  for (let doc = 0; doc < items.length; doc++) {
    for (const [term, weight] of countTerms(items[doc]).counts) {
      const at = next[terms.get(term)!]++;
      docs[at] = doc;
      weights[at] = halves ? weight * 2 : weight;
    }
  }
  return { items, lengths, terms, start, docs, weights, scale: halves ? 0.5 : 1, averageLength: total / Math.max(1, items.length) };
}

// Per spec set: a scan that brings code references leaves the text to search unchanged.
const indexes = new WeakMap<Model["specs"], Index>();

function indexOf(model: Model): Index {
  let index = indexes.get(model.specs);
  if (!index) indexes.set(model.specs, (index = buildIndex(model)));
  return index;
}

/** A word found only by its prefix counts less than the word itself. */
const PREFIX_FACTOR = 0.7;

// speky:speky-ts#SEC-SEARCH-BOUNDS
/** Characters of a query at most: a question, not a document (a 550 KB query held the event loop 19 s). */
export const MAX_QUERY_CHARS = 1000;
/** Distinct words of a query at most. */
export const MAX_QUERY_WORDS = 32;
/** Longer words one query word stands for as a prefix, at most (the first in code-point order). */
export const MAX_PREFIX_TERMS = 1000;
/** Milliseconds a search may hold the event loop before it yields (searchTextReady). */
const SLICE_MS = 8;

/** The term itself first, then the longer words it starts ("time" finds "timeouts"): a binary search. */
function expand(index: Index, term: string): string[] {
  const sorted = (index.sorted ??= [...index.terms.keys()].sort(compareStrings));
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < term) lo = mid + 1;
    else hi = mid;
  }
  const out = [term];
  for (let i = lo; i < sorted.length && out.length <= MAX_PREFIX_TERMS && sorted[i].startsWith(term); i++) {
    if (sorted[i] !== term) out.push(sorted[i]);
  }
  return out;
}

/** A search's hits, best first: positions in `index.items` and their scores. */
interface Ranked {
  index: Index;
  order: number[];
  scores: Float64Array;
}

/** The search's distinct words, at most MAX_QUERY_WORDS (the tool refuses more). */
export function queryWords(query: string): string[] {
  return [...new Set(tokenize(query.slice(0, MAX_QUERY_CHARS)))].slice(0, MAX_QUERY_WORDS);
}

function rank(model: Model, query: string, kind?: Item["kind"]): Ranked {
  const key = `${kind ?? ""}\0${query}`;
  if (prepared?.specs === model.specs && prepared.key === key) return prepared.ranked;
  const steps = rankSteps(model, query, kind);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** The last search made ready by searchTextReady, for the call that asked for it. */
let prepared: { specs: Model["specs"]; key: string; ranked: Ranked } | null = null;

/**
 * Ranks a query the way `rank` does, yielding to the event loop every SLICE_MS between words
 * and their prefixes, so that a server answers other calls meanwhile; the answer that follows
 * (searchTextHits with the same arguments) uses this ranking.
 */
export async function searchTextReady(model: Model, query: string, kind?: Item["kind"]): Promise<void> {
  const steps = rankSteps(model, query, kind);
  let slice = nowMs();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      prepared = { specs: model.specs, key: `${kind ?? ""}\0${query}`, ranked: step.value };
      return;
    }
    if (nowMs() - slice >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = nowMs();
    }
  }
}

/** `rank`'s work, a step per term looked up. */
function* rankSteps(model: Model, query: string, kind?: Item["kind"]): Generator<void, Ranked> {
  const index = indexOf(model);
  const n = index.items.length;
  const scores = new Float64Array(n);
  const best = new Float64Array(n);
  const touched: number[] = [];
  // Term at a time; per document, the best alternative of each query word, summed in query order.
  for (const word of queryWords(query)) {
    const alternatives = expand(index, word);
    for (const term of alternatives) {
      yield;
      const t = index.terms.get(term);
      if (t === undefined) continue;
      const df = index.start[t + 1] - index.start[t];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const factor = term === alternatives[0] ? 1 : PREFIX_FACTOR;
      for (let p = index.start[t]; p < index.start[t + 1]; p++) {
        const doc = index.docs[p];
        const tf = index.weights[p] * index.scale;
        const norm = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * index.lengths[doc]) / index.averageLength));
        if (best[doc] === 0) touched.push(doc);
        best[doc] = Math.max(best[doc], idf * norm * factor);
      }
    }
    for (const doc of touched) {
      scores[doc] += best[doc];
      best[doc] = 0;
    }
    touched.length = 0;
  }
  const order: number[] = [];
  for (let doc = 0; doc < n; doc++) {
    if (scores[doc] <= 0 || (kind && index.items[doc].kind !== kind)) continue;
    scores[doc] = Math.round(scores[doc] * 1000) / 1000;
    order.push(doc);
  }
  order.sort((a, b) => scores[b] - scores[a] || compareStrings(index.items[a].id, index.items[b].id));
  return { index, order, scores };
}

function hit(ranked: Ranked, doc: number): SearchHit {
  const item = ranked.index.items[doc];
  return {
    id: item.id,
    kind: item.kind,
    category: item.category,
    ...(item.short ? { short: item.short } : {}),
    score: ranked.scores[doc],
  };
}

// speky:speky-ts#MCP-SEARCH-TEXT
/** Every hit, best first, shaped only when a page of them is answered (src/mcp/answers/paging.ts). */
export function searchTextHits(
  model: Model,
  query: string,
  kind?: Item["kind"],
): { order: readonly number[]; hit: (doc: number) => SearchHit } {
  const ranked = rank(model, query, kind);
  return { order: ranked.order, hit: (doc) => hit(ranked, doc) };
}
