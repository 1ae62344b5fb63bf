// One Parser and one compiled Query per language, created on first use and kept.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Language, Parser, Query, type Range, type Tree } from "web-tree-sitter";
import { nowMs } from "../../clock.js";
import { GRAMMARS_DIR, type LanguageRow, languageRow, languageTable, wasmPath } from "./languages.js";
import { countTrap } from "./traps.js";

export interface CompiledTestRule {
  file?: RegExp;
  function?: RegExp;
  method?: RegExp;
  class?: RegExp;
  base?: RegExp;
  notWithMember?: RegExp;
  extendedClass?: RegExp;
}

export interface LoadedLanguage {
  id: string;
  row: LanguageRow;
  /** Replaced by a fresh one when the grammar throws (parseBounded). */
  parser: Parser;
  query: Query;
  /** The row's stringQueries, compiled on first use; null without. */
  stringQuery: Query | null;
  comments: ReadonlySet<string>;
  strings: ReadonlySet<string>;
  decorations: ReadonlySet<string>;
  wrappers: ReadonlySet<string>;
  scopeKinds: ReadonlySet<string>;
  testKinds: ReadonlySet<string>;
  test: CompiledTestRule;
}

/** Grammar loads run one at a time: concurrent wasm loads break web-tree-sitter's linking. */
let loadQueue: Promise<unknown> = Promise.resolve();
/** Parser.init instantiates the runtime anew on each call: once only. */
let init: Promise<void> | undefined;
const loaded = new Map<string, Promise<LoadedLanguage>>();

/** The .scm sources of a language, concatenated in table order. */
export function querySource(row: LanguageRow): string {
  return row.queries.map((file) => readFileSync(path.join(GRAMMARS_DIR, file), "utf8")).join("\n");
}

/** The row's stringQueries (see languages.ts), concatenated; null without. */
export function stringQuerySource(row: LanguageRow): string | null {
  if (!row.stringQueries?.length) return null;
  return row.stringQueries.map((file) => readFileSync(path.join(GRAMMARS_DIR, file), "utf8")).join("\n");
}

/** The parser's wasm runtime, instantiated once (a worker does it before its first file). */
export function initRuntime(): Promise<void> {
  init ??= Parser.init();
  return init;
}

export function loadGrammar(row: LanguageRow): Promise<Language> {
  return loadWasm(wasmPath(row));
}

/**
 * A grammar from a .wasm file, or a gzipped one (.wasm.gz, as shipped: about 1.3 ms of CPU a
 * megabyte to inflate). The bench also measures candidates the table doesn't name.
 */
export function loadWasm(file: string): Promise<Language> {
  const next = loadQueue.then(async () => {
    await initRuntime();
    return Language.load(file.endsWith(".gz") ? gunzipSync(readFileSync(file)) : file);
  });
  loadQueue = next.catch(() => undefined);
  return next;
}

/** The capture names the engine reads (grammars/README.md); `_`-prefixed ones are the queries' own. */
export const QUERY_CAPTURES =
  /^(definition\.[a-z_]+|name|qualifier|anchor|base|docstring|decoration|comment|test\.attribute|test\.untitled|_.*)$/;
/** A row's stringQueries may only mark docstrings. */
export const STRING_QUERY_CAPTURES = /^(docstring|_.*)$/;
/** The #set! properties the engine reads. */
const QUERY_PROPERTIES = new Set(["separator", "qualifier_separator", "scope", "title"]);

// speky:speky-ts#GRAM-CAPTURES
/**
 * A compiled query whose capture names and properties are all the engine's (a misspelt
 * capture would silently find nothing): else an error naming the language and the capture.
 */
/** The query predicates the engine evaluates itself (web-tree-sitter applies #match?, #eq?, #any-of?). */
export const OWN_PREDICATES: ReadonlySet<string> = new Set(["followed-only-by?"]);

export function checkedQuery(language: Language, source: string, allowed: RegExp, what: string): Query {
  const query = new Query(language, source);
  const unknown =
    query.captureNames.find((c) => !allowed.test(c)) ??
    query.setProperties.flatMap((props) => Object.keys(props ?? {})).find((key) => !QUERY_PROPERTIES.has(key));
  // Predicates web-tree-sitter leaves to us: only ours (src/scan/engine/own-predicates.ts), each naming a capture first.
  const predicate = query.predicates.flat().find((p) => !OWN_PREDICATES.has(p.operator) || p.operands[0]?.type !== "capture");
  if (unknown !== undefined || predicate !== undefined) {
    query.delete();
    throw new Error(
      unknown !== undefined
        ? `${what}: unknown capture or property '${unknown}' (grammars/README.md lists those the scanner reads)`
        : `${what}: unknown predicate '#${predicate!.operator}' or one without a capture first (grammars/README.md lists ours)`,
    );
  }
  return query;
}

function compileTestRule(row: LanguageRow): CompiledTestRule {
  const rule: CompiledTestRule = {};
  for (const [key, source] of Object.entries(row.test ?? {})) {
    if (source) rule[key as keyof CompiledTestRule] = new RegExp(source, "u");
  }
  return rule;
}

async function load(id: string): Promise<LoadedLanguage> {
  const row = languageRow(id);
  const language = await loadGrammar(row);
  const parser = new Parser();
  parser.setLanguage(language);
  const table = languageTable();
  // Compiled on first use: a fallback grammar's tree is often thrown away unqueried (C++ for a
  // C header: 130 ms of compiling), and a file without tags in code needs no query.
  let query: Query | undefined;
  let stringQuery: Query | null | undefined;
  return {
    id,
    row,
    parser,
    get query() {
      query ??= checkedQuery(language, querySource(row), QUERY_CAPTURES, `the ${id} queries`);
      return query;
    },
    // speky:speky-ts#QUERY-STRINGS-ON-DEMAND
    get stringQuery() {
      if (stringQuery === undefined) {
        const source = stringQuerySource(row);
        stringQuery = source === null ? null : checkedQuery(language, source, STRING_QUERY_CAPTURES, `the ${id} string queries`);
      }
      return stringQuery;
    },
    comments: new Set(row.comments),
    strings: new Set(row.strings),
    decorations: new Set(row.decorations),
    wrappers: new Set(row.wrappers),
    scopeKinds: new Set(table.scopeKinds),
    testKinds: new Set(table.testKinds),
    test: compileTestRule(row),
  };
}

export function loadLanguage(id: string): Promise<LoadedLanguage> {
  let promise = loaded.get(id);
  if (!promise) {
    promise = load(id);
    loaded.set(id, promise);
  }
  return promise;
}

/**
 * Per file, wall time. Measured by npm run bench:grammars on the shared 2-core machine under
 * heavy load: real files parse in under 12 s (the slowest, a 1 MB JavaScript bundle of
 * node_modules and generated C++ and Kotlin), while the Swift grammar spends 40 to 125 s on
 * some generated 200-300 KB files of flutter/packages. 30 s leaves the first a margin under
 * load (a bound that load can reach would make output vary) and cuts the second short.
 * SPEKY_PARSE_BOUND_MS overrides it (tests set 0 to reach it).
 */
export const DEFAULT_PARSE_BOUND_MS = 30_000;

export function parseBoundMs(): number {
  const raw = process.env.SPEKY_PARSE_BOUND_MS;
  const value = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_PARSE_BOUND_MS;
}

/** Parsing took longer than the bound: the file's tags are reported without symbols. */
export class ParseBoundExceeded extends Error {
  constructor(readonly boundMs: number) {
    super(`parsing took longer than ${boundMs} ms`);
  }
}

/** A grammar failed at run time (a trap or a missing import in its wasm). */
export class GrammarFailure extends Error {}

// speky:speky-ts#GRAM-BOUND
/**
 * Parses `text`, cancelled through web-tree-sitter's progress callback once `boundMs` have
 * passed: a slow grammar on a pathological file must not stall a scan. A grammar that throws
 * gets a fresh Parser for the next file (its state after a trap can't be trusted).
 */
export function parseBounded(lang: LoadedLanguage, text: string, boundMs: number, includedRanges?: Range[]): Tree {
  const started = nowMs();
  let cancelled = false;
  let tree: Tree | null;
  try {
    tree = lang.parser.parse(text, null, {
      progressCallback: () => (cancelled ||= nowMs() - started >= boundMs),
      includedRanges,
    });
  } catch (err) {
    countTrap();
    const parser = new Parser();
    parser.setLanguage(lang.parser.language);
    try {
      lang.parser.delete();
    } catch {
      // already unusable: dropped either way
    }
    lang.parser = parser;
    throw new GrammarFailure(`the ${lang.id} grammar failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!tree) {
    lang.parser.reset();
    if (cancelled) throw new ParseBoundExceeded(boundMs);
    throw new GrammarFailure(`tree-sitter could not parse with the ${lang.id} grammar`);
  }
  return tree;
}
