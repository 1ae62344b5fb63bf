// The language table (grammars/languages.json) and the choice of a language for a file.
// Everything a language needs is data in grammars/: this module only reads it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Conditions under which a definition is a test, from names (see grammars/README.md). */
export interface TestRuleRow {
  file?: string;
  function?: string;
  method?: string;
  class?: string;
  base?: string;
  /** A class matched by `class` is no test class when it has a member so named (pytest: `__init__`). */
  notWithMember?: string;
  /** An extension of a type declared in another file is a test class when the type's name matches (XCTest). */
  extendedClass?: string;
}

/** Where a language's compiled grammar comes from: a pinned npm package and a file in it. */
export interface GrammarSource {
  package: string;
  version: string;
  /** Path of the .wasm inside the package. */
  file: string;
}

export interface LanguageRow {
  name: string;
  grammar: GrammarSource;
  queries: string[];
  /**
   * Queries whose captures matter only to a tag written inside one of the `strings` node types
   * (docstrings): compiled and run only for a file with such a tag.
   */
  stringQueries?: string[];
  extensions: string[];
  filenames: string[];
  interpreters: string[];
  comments: string[];
  strings: string[];
  decorations: string[];
  wrappers: string[];
  separator: string;
  /**
   * A tagged file may be parsed up to a little after its last tag (src/scan/engine/prefix.ts):
   * "braces" where a definition ends with a closing token, "offside" where it ends at a line
   * indented no deeper than it (Python). Absent: always parsed whole.
   */
  prefixParse?: "braces" | "offside";
  /**
   * With prefixParse, a parse may also start at a top-level line before the first tag unless
   * a line before it matches this (multiline regex source): a statement that encloses the
   * declarations after it (C#'s `namespace Shop;`).
   */
  windowBarrier?: string;
  test?: TestRuleRow;
  /** Extension → language to parse with instead when this grammar finds syntax errors. */
  fallback?: Record<string, string>;
}

export interface LanguageTable {
  scopeKinds: string[];
  testKinds: string[];
  languages: Record<string, LanguageRow>;
}

/** src/scan/grammar and dist/scan/grammar are both three levels below the package root. */
export const GRAMMARS_DIR = fileURLToPath(new URL("../../../grammars/", import.meta.url));

const requireHere = createRequire(import.meta.url);

/** Root folder of an installed package (its package.json's folder). */
export function packageDir(name: string): string {
  return path.dirname(requireHere.resolve(`${name}/package.json`));
}

// speky:speky-ts#GRAM-SOURCES
// speky:speky-ts#INSTALL-SLIM
/**
 * The .wasm a row loads: the copy shipped in grammars/wasm/ (gzipped by scripts/grammars.mjs
 * from the package and file the table names; an installed speky-ts has no grammar package).
 */
export function wasmPath(row: LanguageRow): string {
  return path.join(GRAMMARS_DIR, "wasm", `${path.basename(row.grammar.file)}.gz`);
}

/** The .wasm in the pinned package the table names (a devDependency: in a clone only). */
export function packageWasmPath(row: LanguageRow): string {
  return path.join(packageDir(row.grammar.package), row.grammar.file);
}

let table: LanguageTable | undefined;

export function languageTable(): LanguageTable {
  table ??= JSON.parse(readFileSync(path.join(GRAMMARS_DIR, "languages.json"), "utf8")) as LanguageTable;
  return table;
}

export function languageRow(id: string): LanguageRow {
  const row = languageTable().languages[id];
  if (!row) throw new Error(`unknown language: ${id}`);
  return row;
}

interface Lookup {
  byExtension: Map<string, string>;
  byFilename: Map<string, string>;
  byInterpreter: Map<string, string>;
}

let lookup: Lookup | undefined;

function buildLookup(): Lookup {
  const result: Lookup = { byExtension: new Map(), byFilename: new Map(), byInterpreter: new Map() };
  for (const [id, row] of Object.entries(languageTable().languages)) {
    for (const ext of row.extensions) if (!result.byExtension.has(ext)) result.byExtension.set(ext, id);
    for (const name of row.filenames) if (!result.byFilename.has(name)) result.byFilename.set(name, id);
    for (const exe of row.interpreters) if (!result.byInterpreter.has(exe)) result.byInterpreter.set(exe, id);
  }
  return result;
}

/** The last part of a path: path.basename without its checks (asked once per file a walk meets). */
const lastPart = path.sep === "/" ? (file: string) => file.slice(file.lastIndexOf("/") + 1) : (file: string) => path.basename(file);

/** Language of a file from its name alone (extension or exact file name). */
export function languageForPath(file: string): string | null {
  lookup ??= buildLookup();
  const base = lastPart(file);
  const byName = lookup.byFilename.get(base);
  if (byName) return byName;
  // path.extname's rule: from the last dot, unless the name starts with it (.bashrc).
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot).toLowerCase() : "";
  return (ext && lookup.byExtension.get(ext)) || null;
}

const SHEBANG = /^#![ \t]*(\S+)(?:[ \t]+(\S+))?/;

/** Language named by a `#!` line, for scripts without an extension. */
export function languageForShebang(text: string): string | null {
  const m = SHEBANG.exec(text);
  if (!m) return null;
  lookup ??= buildLookup();
  let exe = path.basename(m[1]);
  if (exe === "env" && m[2]) exe = path.basename(m[2]);
  const exact = lookup.byInterpreter.get(exe);
  if (exact) return exact;
  // python3.12, node18...
  const stem = exe.replace(/[\d.]+$/, "");
  return lookup.byInterpreter.get(stem) ?? null;
}
