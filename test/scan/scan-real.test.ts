// Real code nobody here wrote: JavaScript and TypeScript files of node_modules, copied with
// a tag planted right above each top-level function and each method of a top-level class.
// Where to plant comes from a plain tree-sitter parse, not from the scanner.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, describe, expect, it } from "vitest";
import { type Node, Parser } from "web-tree-sitter";
import { languageForPath, languageRow } from "../../src/scan/grammar/languages.js";
import { loadGrammar } from "../../src/scan/grammar/runtime.js";
import { scanPaths } from "../../src/scan/scan.js";
import { REPO } from "./scan-helpers.js";

interface Planted {
  file: string;
  id: string;
  line: number;
  symbol: string;
  kind: string;
  language: string;
}

interface Site {
  row: number;
  indent: string;
  nameRow: number;
  symbol: string;
  kind: string;
}

const MAX_FILES = 300;
const MAX_BYTES = 100_000;

/** The statement starts its line: a line inserted above it sits directly above. */
function startsLine(node: Node, lines: string[]): string | null {
  const before = lines[node.startPosition.row].slice(0, node.startPosition.column);
  return before.trim() === "" ? before : null;
}

function sitesOf(root: Node, lines: string[]): Site[] {
  const sites: Site[] = [];
  const add = (node: Node, name: Node, symbol: string, kind: string) => {
    const indent = startsLine(node, lines);
    if (indent !== null) sites.push({ row: node.startPosition.row, indent, nameRow: name.startPosition.row, symbol, kind });
  };
  for (const statement of root.namedChildren) {
    if (!statement) continue;
    const decl = statement.type === "export_statement" ? statement.childForFieldName("declaration") : statement;
    if (!decl) continue;
    const name = decl.childForFieldName("name");
    if (!name) continue;
    if (decl.type === "function_declaration" || decl.type === "generator_function_declaration") {
      add(statement, name, name.text, "function");
    } else if (decl.type === "class_declaration") {
      for (const member of decl.childForFieldName("body")?.namedChildren ?? []) {
        const method = member?.type === "method_definition" ? member.childForFieldName("name") : null;
        if (method && /^#?[A-Za-z_$][\w$]*$/.test(method.text)) add(member!, method, `${name.text}.${method.text}`, "method");
      }
    }
  }
  // One tag per line: two definitions starting on one line can't both be "directly below".
  return sites.filter((s, i) => sites.findIndex((t) => t.row === s.row) === i);
}

describe("scanning real third-party code", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "speky-real-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // speky:speky-ts#TSCAN-REAL
  it("finds every tag planted above node_modules functions, with symbol and line", async () => {
    const candidates = (await fg("node_modules/**/*.{js,mjs,cjs,ts}", { cwd: REPO, ignore: ["**/*.d.ts", "**/*.min.js"] }))
      .sort()
      .filter((f) => statSync(path.join(REPO, f)).size < MAX_BYTES);
    const parsers = new Map<string, Parser>();
    const planted: Planted[] = [];
    let files = 0;
    const stride = Math.max(1, Math.floor(candidates.length / (MAX_FILES * 2)));
    for (let i = 0; i < candidates.length && files < MAX_FILES; i += stride) {
      const source = readFileSync(path.join(REPO, candidates[i]), "utf8");
      const language = languageForPath(candidates[i])!;
      if (source.includes("speky:") || source.includes("\r")) continue;
      let parser = parsers.get(language);
      if (!parser) {
        const grammar = await loadGrammar(languageRow(language));
        parser = new Parser();
        parser.setLanguage(grammar);
        parsers.set(language, parser);
      }
      const tree = parser.parse(source)!;
      const lines = source.split("\n");
      const sites = tree.rootNode.hasError ? [] : sitesOf(tree.rootNode, lines);
      tree.delete();
      if (sites.length === 0) continue;
      files++;
      const file = `${files}-${path.basename(candidates[i])}`;
      const insertAt = new Map<number, string>();
      for (const site of sites) {
        const id = `F${planted.length}`;
        insertAt.set(site.row, `${site.indent}// speky:real#${id}`);
        const shift = sites.filter((s) => s.row <= site.nameRow).length;
        planted.push({ file, id, line: site.nameRow + 1 + shift, symbol: site.symbol, kind: site.kind, language });
      }
      const out = lines.flatMap((line, row) => (insertAt.has(row) ? [insertAt.get(row)!, line] : [line]));
      writeFileSync(path.join(dir, file), out.join("\n"));
    }
    expect(files).toBeGreaterThanOrEqual(200);
    expect(planted.length).toBeGreaterThanOrEqual(1000);
    expect(planted.filter((p) => p.kind === "method").length).toBeGreaterThanOrEqual(100);
    expect(new Set(planted.map((p) => p.language))).toEqual(new Set(["javascript", "typescript"]));

    const result = await scanPaths("real", ["."], dir);
    expect(result.diagnostics).toEqual([]);
    const found = result.references.map((r) => ({
      file: r.file,
      id: r.id,
      line: r.line,
      symbol: r.symbol,
      kind: r.kind,
      language: r.language,
    }));
    const byId = (a: { id: string }, b: { id: string }) => Number(a.id.slice(1)) - Number(b.id.slice(1));
    expect(found.sort(byId)).toEqual(planted.sort(byId));
    expect(result.stats.tags).toBe(planted.length);
  });
});
