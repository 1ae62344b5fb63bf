// Every query compiles against its grammar and every node type the table names exists in
// it: grammar builds differ from upstream and from each other, and a mismatch must fail CI.

import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  languageForPath,
  languageForShebang,
  languageTable,
  packageDir,
  packageWasmPath,
  wasmPath,
} from "../../src/scan/grammar/languages.js";
import {
  checkedQuery,
  loadGrammar,
  QUERY_CAPTURES,
  querySource,
  STRING_QUERY_CAPTURES,
  stringQuerySource,
} from "../../src/scan/grammar/runtime.js";
import { REPO } from "./scan-helpers.js";

describe("grammars", () => {
  const table = languageTable();

  // speky:speky-ts#TGRAM-OWN-PREDICATES
  it.each(Object.keys(table.languages))("%s: queries compile and node types exist", async (id) => {
    const row = table.languages[id];
    const language = await loadGrammar(row);
    // Checked as a scan loads it: every capture and property one the engine reads.
    const query = checkedQuery(language, querySource(row), QUERY_CAPTURES, id);
    const named = [...row.comments, ...row.strings, ...row.decorations, ...row.wrappers];
    for (const type of named) expect(language.idForNodeType(type, true), `${id}: ${type}`).toBeTruthy();
    for (const target of Object.values(row.fallback ?? {})) expect(table.languages).toHaveProperty(target);
    query.delete();
    // String queries run only for a tag inside a string: they may only mark docstrings.
    const strings = stringQuerySource(row);
    if (strings !== null) {
      checkedQuery(language, strings, STRING_QUERY_CAPTURES, id).delete();
    }
  });

  // speky:speky-ts#TGRAM-CAPTURES
  it("refuses, when a query loads, a capture or property the engine does not read", async () => {
    const language = await loadGrammar(table.languages.python);
    expect(() =>
      checkedQuery(language, "(function_definition name: (identifier) @nmae) @definition.function", QUERY_CAPTURES, "python"),
    ).toThrow("python: unknown capture or property 'nmae'");
    expect(() => checkedQuery(language, '((identifier) @name (#set! scop "following"))', QUERY_CAPTURES, "python")).toThrow("'scop'");
    expect(() => checkedQuery(language, "(string) @name", STRING_QUERY_CAPTURES, "python")).toThrow("'name'");
    // Predicates web-tree-sitter leaves to us: only ours, each naming a capture first.
    expect(() => checkedQuery(language, '((identifier) @name (#folowed-only-by? @name "comment"))', QUERY_CAPTURES, "python")).toThrow(
      "unknown predicate '#folowed-only-by?'",
    );
    expect(() => checkedQuery(language, '((identifier) @name (#followed-only-by? "comment"))', QUERY_CAPTURES, "python")).toThrow(
      "'#followed-only-by?'",
    );
    checkedQuery(language, "(function_definition name: (identifier) @name) @definition.function", QUERY_CAPTURES, "python").delete();
  });

  // speky:speky-ts#TGRAM-TABLE
  it("loads each grammar from the package the table names, at the pinned version, shipped as its gzipped copy", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const [id, row] of Object.entries(table.languages)) {
      const { package: name, version } = row.grammar;
      const installed = JSON.parse(readFileSync(path.join(packageDir(name), "package.json"), "utf8")) as { version: string };
      // A devDependency: the published package carries the copies, never the grammar packages.
      expect([id, installed.version, pkg.devDependencies[name], pkg.dependencies[name]]).toEqual([id, version, version, undefined]);
      expect(gunzipSync(readFileSync(wasmPath(row))).equals(readFileSync(packageWasmPath(row))), `${id}: ${wasmPath(row)}`).toBe(true);
    }
  });

  it("picks a language by extension, file name and shebang", () => {
    expect(languageForPath("a/b/c.py")).toBe("python");
    expect(languageForPath("x.TSX")).toBe("tsx");
    expect(languageForPath("x.h")).toBe("c");
    expect(languageForPath("README.md")).toBeNull();
    expect(languageForPath("Makefile")).toBeNull();
    expect(languageForShebang("#!/usr/bin/env python3.12\nprint()")).toBe("python");
    expect(languageForShebang("#!/usr/local/bin/node\n")).toBe("javascript");
    expect(languageForShebang("#!/bin/sh\n")).toBe("bash");
    expect(languageForShebang("#!/usr/bin/awk -f\n")).toBeNull();
    expect(languageForShebang("print()")).toBeNull();
  });

  it("gives each extension to one language", () => {
    const extensions = Object.values(table.languages).flatMap((row) => row.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const ext of extensions) expect(ext).toMatch(/^\.[a-z0-9+]+$/);
  });
});
