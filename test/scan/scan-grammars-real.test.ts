// Every grammar on real files that reach its external scanner (heredocs, raw and interpolated
// strings, nested comments, preprocessor lines...): files this machine has (Python's standard
// library, /usr/include, node_modules, pyenv's bats suites, the JDK's sources) plus the small
// files of fixtures/grammars/. Any runtime error from a grammar fails. A grammar that fails
// or runs past the parse bound costs a file its symbols, never its tags.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Parser } from "web-tree-sitter";
import { childPaths, filesByLanguage, jdkSources } from "../../bench/machine-sources.js";
import { scanFileBuffer, unparsedMessage } from "../../src/scan/engine/file.js";
import { languageForPath, languageTable, packageDir } from "../../src/scan/grammar/languages.js";
import {
  GrammarFailure,
  type LoadedLanguage,
  loadLanguage,
  loadWasm,
  ParseBoundExceeded,
  parseBounded,
} from "../../src/scan/grammar/runtime.js";
import { REPO } from "./scan-helpers.js";

const WRITTEN = path.join(REPO, "fixtures/grammars");
/** Per language and folder: the files the test takes from the machine. */
const PER_LANGUAGE = 20;
/** The user's real home (the suites run with HOME set to their own, test/global-setup.ts): only read. */
const HOME = os.userInfo().homedir;

/** Where this machine keeps real code, and what marks a file that reaches the external scanner. */
const MACHINE: { root: string; content: RegExp }[] = [
  ...childPaths("/usr/lib", /^python3\.\d+$/).map((root) => ({ root, content: /f"[^"\n]*\{|"""|\\\n|^\s+match\b/m })),
  { root: "/usr/include", content: /^\s*#\s*(if|define)\b[^\n]*\\$/m },
  { root: path.join(REPO, "node_modules"), content: /`[^`\n]*\$\{|<\/[A-Za-z]+>|\/\*/ },
  { root: path.join(HOME, ".pyenv"), content: /<<-?\s*['"]?[A-Z_]+|\[\[ |\bcase\b/ },
  ...childPaths(path.join(HOME, ".rustup/toolchains"), /./).map((t) => ({
    root: path.join(t, "lib/rustlib/src/rust/library/core/src"),
    content: /r#+"|\/\*/,
  })),
  ...jdkSources("java.base/java/util", "speky-test-jdk-src").map((root) => ({ root, content: /"""|\/\*\*/ })),
];

/** Source files under `root` by language, symbolic links not followed, in sorted order. */
const sourcesByLanguage = (root: string) => filesByLanguage([root], languageForPath, { maxDepth: 12, maxBytes: 512 * 1024 - 1 });

/** Per language: the written files plus, from each machine folder, files that reach the scanner. */
function corpus(): Map<string, string[]> {
  const byLanguage = new Map<string, string[]>();
  const add = (language: string, files: string[]) => byLanguage.set(language, [...(byLanguage.get(language) ?? []), ...files]);
  for (const [language, files] of sourcesByLanguage(WRITTEN)) add(language, files);
  for (const { root, content } of MACHINE) {
    for (const [language, files] of sourcesByLanguage(root)) {
      const chosen: string[] = [];
      for (const file of files) {
        if (chosen.length >= PER_LANGUAGE) break;
        if (content.test(readFileSync(file, "latin1"))) chosen.push(file);
      }
      add(language, chosen);
    }
  }
  return byLanguage;
}

const files = corpus();
const NO_BOUND = 60_000;

describe("grammars on real files", () => {
  // speky:speky-ts#TGRAM-REAL
  it.each(Object.keys(languageTable().languages))("%s: no runtime error from the grammar", async (id) => {
    const list = files.get(id) ?? [];
    expect(list.length, `${id}: a written file at least`).toBeGreaterThan(0);
    const lang = await loadLanguage(id);
    const failures: string[] = [];
    for (const file of list) {
      try {
        parseBounded(lang, readFileSync(file, "utf8"), NO_BOUND).delete();
      } catch (err) {
        failures.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("every written file resolves its first tag to a symbol", async () => {
    const unresolved: string[] = [];
    for (const file of readdirSync(WRITTEN).sort()) {
      const abs = path.join(WRITTEN, file);
      const result = await scanFileBuffer(abs, readFileSync(abs));
      const first = result.tags[0];
      if (!first?.symbol || first.warning) unresolved.push(`${file}: ${JSON.stringify(first)}`);
    }
    expect(unresolved).toEqual([]);
  });
});

describe("a grammar's failure loses no tag", () => {
  const saved = process.env.SPEKY_PARSE_BOUND_MS;
  afterEach(() => {
    if (saved === undefined) delete process.env.SPEKY_PARSE_BOUND_MS;
    else process.env.SPEKY_PARSE_BOUND_MS = saved;
  });

  // speky:speky-ts#TGRAM-BOUND
  it("past the parse bound, every tag is a free reference with a warning", async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `# speky:fx#R-${i}\ndef f${i}():\n    return ${i}\n`);
    const text = Buffer.from(lines.join("\n"));
    const normal = await scanFileBuffer("/x/bound.py", text);
    expect(normal.tags.filter((t) => t.symbol !== null)).toHaveLength(400);
    process.env.SPEKY_PARSE_BOUND_MS = "0";
    const bounded = await scanFileBuffer("/x/bound.py", text);
    const references = bounded.tags.filter((t) => t.reference);
    expect(references.map((t) => [t.id, t.line, t.symbol])).toEqual(normal.tags.map((t) => [t.id, t.tag_line, null]));
    // The warning is written on the first few; the rest are counted in one line (cap.ts).
    const message = unparsedMessage(new ParseBoundExceeded(0));
    expect(references[0].warning).toBe(message);
    const summary = bounded.tags.filter((t) => !t.reference).map((t) => t.warning);
    expect(summary).toEqual([`${400 - references.filter((t) => t.warning === message).length} more tags in this file: ${message}`]);
  });

  // speky:speky-ts#TGRAM-FALLBACK
  it("a grammar that throws gives a GrammarFailure, and the next file parses with a fresh parser", async () => {
    // The bash build of tree-sitter-wasms 0.1.13 calls `isalpha`, which web-tree-sitter 0.25 lacks.
    const broken = await loadWasm(path.join(packageDir("tree-sitter-wasms"), "out/tree-sitter-bash.wasm"));
    const parser = new Parser();
    parser.setLanguage(broken);
    const bash = await loadLanguage("bash");
    const lang: LoadedLanguage = { ...bash, id: "bash-0.1.13", parser };
    const trap = 'case "$x" in\n  a) echo a ;;\nesac\n';
    expect(() => parseBounded(lang, trap, NO_BOUND)).toThrow(GrammarFailure);
    expect(lang.parser).not.toBe(parser);
    const tree = parseBounded(lang, "echo fine\n", NO_BOUND);
    expect(tree.rootNode.hasError).toBe(false);
    tree.delete();
    expect(unparsedMessage(new GrammarFailure("the bash grammar failed: x"))).toBe(
      "the bash grammar failed: x: tag reported without a symbol",
    );
  });
});
