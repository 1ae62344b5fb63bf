// One Parser and one compiled Query per language, created on first use and kept.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Language, Parser, Query } from "web-tree-sitter";
import { GRAMMARS_DIR, languageRow, languageTable, wasmDir, type LanguageRow } from "./languages.js";

export interface CompiledTestRule {
  file?: RegExp;
  function?: RegExp;
  method?: RegExp;
  class?: RegExp;
  base?: RegExp;
}

export interface LoadedLanguage {
  id: string;
  row: LanguageRow;
  parser: Parser;
  query: Query;
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

export function loadGrammar(row: LanguageRow): Promise<Language> {
  const next = loadQueue.then(async () => {
    init ??= Parser.init();
    await init;
    return Language.load(path.join(wasmDir(), row.wasm));
  });
  loadQueue = next.catch(() => undefined);
  return next;
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
  return {
    id,
    row,
    parser,
    query: new Query(language, querySource(row)),
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
