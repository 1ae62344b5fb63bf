// Every query compiles against its grammar and every node type the table names exists in
// it: grammar builds differ from upstream and from each other, and a mismatch must fail CI.

import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Query } from "web-tree-sitter";
import { languageForPath, languageForShebang, languageTable, packageDir, packageWasmPath, wasmPath } from "../src/scan/languages.js";
import { OWN_PREDICATES } from "../src/scan/own-predicates.js";
import { loadGrammar, querySource, stringQuerySource } from "../src/scan/runtime.js";
import { REPO } from "./scan-helpers.js";

const CAPTURES = /^(definition\.[a-z_]+|name|qualifier|anchor|base|docstring|decoration|comment|test\.attribute|_.*)$/;
const PROPERTIES = new Set(["separator", "qualifier_separator", "scope"]);

describe("grammars", () => {
  const table = languageTable();

  // speky:speky-ts#TGRAM-OWN-PREDICATES
  it.each(Object.keys(table.languages))("%s: queries compile and node types exist", async (id) => {
    const row = table.languages[id];
    const language = await loadGrammar(row);
    const query = new Query(language, querySource(row));
    for (const capture of query.captureNames) expect(capture).toMatch(CAPTURES);
    for (const props of query.setProperties) {
      for (const key of Object.keys(props ?? {})) expect(PROPERTIES).toContain(key);
    }
    // Predicates web-tree-sitter leaves to us: only ours, each naming a capture first.
    for (const list of query.predicates) {
      for (const predicate of list) {
        expect(OWN_PREDICATES, `${id}: #${predicate.operator}`).toContain(predicate.operator);
        expect(predicate.operands[0]?.type).toBe("capture");
      }
    }
    const named = [...row.comments, ...row.strings, ...row.decorations, ...row.wrappers];
    for (const type of named) expect(language.idForNodeType(type, true), `${id}: ${type}`).toBeTruthy();
    for (const target of Object.values(row.fallback ?? {})) expect(table.languages).toHaveProperty(target);
    query.delete();
    // String queries run only for a tag inside a string: they may only mark docstrings.
    const strings = stringQuerySource(row);
    if (strings !== null) {
      const stringQuery = new Query(language, strings);
      for (const capture of stringQuery.captureNames) expect(capture).toMatch(/^(docstring|_.*)$/);
      stringQuery.delete();
    }
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
