// Ranked full-text search over the specs ("is there already a requirement about timeouts?").
// BM25 over weighted fields; the index is built once per model, on first use.
import { compareStrings } from "../diagnostics.js";
import type { Item } from "../spec/types.js";
import type { Model } from "./model.js";

export interface SearchHit {
  id: string;
  kind: Item["kind"];
  category: string;
  short?: string;
  /** Rounded to 3 decimals so output stays stable across platforms. */
  score: number;
}

interface Document {
  item: Item;
  /** term → weighted frequency */
  terms: Map<string, number>;
  length: number;
}

interface Index {
  documents: Document[];
  /** term → number of documents containing it */
  frequency: Map<string, number>;
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

function buildIndex(model: Model): Index {
  const documents: Document[] = [];
  const frequency = new Map<string, number>();
  for (const item of model.byId.values()) {
    const terms = new Map<string, number>();
    let length = 0;
    for (const [field, text] of fieldsOf(item)) {
      for (const term of tokenize(text)) {
        terms.set(term, (terms.get(term) ?? 0) + WEIGHTS[field]);
        length++;
      }
    }
    for (const term of terms.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    documents.push({ item, terms, length });
  }
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, documents.length);
  return { documents, frequency, averageLength };
}

const indexes = new WeakMap<Model, Index>();

function indexOf(model: Model): Index {
  let index = indexes.get(model);
  if (!index) indexes.set(model, (index = buildIndex(model)));
  return index;
}

/** A word found only by its prefix counts less than the word itself. */
const PREFIX_FACTOR = 0.7;

/** The term itself first, then the longer words it starts ("time" finds "timeouts"). */
function expand(index: Index, term: string): string[] {
  return [term, ...[...index.frequency.keys()].filter((t) => t !== term && t.startsWith(term))];
}

// speky:speky-ts#MCP-SEARCH-TEXT
export function searchText(model: Model, query: string, kind?: Item["kind"], limit = 20): SearchHit[] {
  const index = indexOf(model);
  const n = index.documents.length;
  const queryTerms = [...new Set(tokenize(query))].map((t) => expand(index, t));
  const hits: SearchHit[] = [];
  for (const doc of index.documents) {
    if (kind && doc.item.kind !== kind) continue;
    let score = 0;
    for (const alternatives of queryTerms) {
      let best = 0;
      for (const term of alternatives) {
        const tf = doc.terms.get(term);
        if (!tf) continue;
        const df = index.frequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const norm = tf * (K1 + 1) / (tf + K1 * (1 - B + (B * doc.length) / index.averageLength));
        best = Math.max(best, idf * norm * (term === alternatives[0] ? 1 : PREFIX_FACTOR));
      }
      score += best;
    }
    if (score <= 0) continue;
    const { item } = doc;
    hits.push({
      id: item.id,
      kind: item.kind,
      category: item.category,
      ...(item.short ? { short: item.short } : {}),
      score: Math.round(score * 1000) / 1000,
    });
  }
  hits.sort((a, b) => b.score - a.score || compareStrings(a.id, b.id));
  return hits.slice(0, Math.max(0, limit));
}
