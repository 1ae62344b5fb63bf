// What `speky lsp`'s hover says, read as clients read it: the built server on a tree written
// here, its Markdown rendered by the parsers that editors use (marked, as VS Code's hovers do,
// with GFM autolinks; markdown-it with linkify, strict and fuzzy), never by a look at the text.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hover } from "vscode-languageserver-protocol";
import { type LspSession, startLsp } from "../support/lsp.js";
import { tempDir } from "../support/process.js";

const URLS = "See https://example.com/spec?x=1, www.example.org, HTTP://EXAMPLE.NET, ftp://files.example.com, mailto:ana@example.com";

const TREE: Record<string, string> = {
  "speky.yaml": "kind: project\nname: web\nfiles:\n  - reqs.yaml\n  - tests.yaml\ncode_sources:\n  - src/*.ts\n  - test/*.ts\n",
  "reqs.yaml": [
    "kind: requirements",
    "category: functional",
    "requirements:",
    "  - id: R-NONE",
    "    short: No test at all",
    "    long: No test at all.",
    "  - id: R-MANUAL",
    "    short: Tested by hand",
    "    long: Tested by hand.",
    "  - id: R-SOME",
    "    short: Tested both ways",
    "    long: Tested both ways.",
    "  - id: R-ALL",
    "    short: Tested by machine",
    "    long: Tested by machine.",
    "  - id: R-URL",
    "    short: Links in www.example.com and https://example.com/short",
    `    long: "${URLS}; docs at example.com/guide and a@b.io."`,
    "",
  ].join("\n"),
  "tests.yaml": [
    "kind: tests",
    "category: functional",
    "tests:",
    "  - id: T-MANUAL",
    "    long: A test.",
    "    ref: [R-MANUAL, R-SOME]",
    "    steps:",
    "      - action: Look",
    "  - id: T-AUTO",
    "    long: A test.",
    "    ref: [R-SOME, R-ALL]",
    "    steps:",
    "      - action: Run",
    "",
  ].join("\n"),
  "test/shop.test.ts": 'describe("shop", () => {\n  // speky:web#T-AUTO\n  it("works", () => {});\n});\n',
  "src/app.ts": [
    "// speky:web#R-NONE",
    "// speky:web#R-MANUAL",
    "// speky:web#R-SOME",
    "// speky:web#R-ALL",
    "// speky:web#R-URL",
    "",
  ].join("\n"),
};

let s: LspSession;
beforeAll(async () => {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(TREE)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  s = await startLsp(dir);
  const loaded = await s.status((st) => st.state !== "loading" && (st.state !== "ready" || st.scanned));
  expect(loaded.state).toBe("ready");
  s.open("src/app.ts", undefined, "typescript");
});
afterAll(async () => {
  await s?.close();
});

async function hover(line: number): Promise<string> {
  const h = await s.connection.sendRequest<Hover>("textDocument/hover", {
    textDocument: { uri: s.uri("src/app.ts") },
    position: { line, character: 8 },
  });
  return typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "";
}

const strict = new MarkdownIt({ linkify: true });
const fuzzy = new MarkdownIt({ linkify: true });
fuzzy.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });
const renderers: [string, (markdown: string) => string][] = [
  ["marked (GFM)", (m) => marked.parse(m, { gfm: true, async: false })],
  ["markdown-it (linkify)", (m) => strict.render(m)],
  ["markdown-it (fuzzy linkify)", (m) => fuzzy.render(m)],
];

describe("speky lsp hover", () => {
  // speky:speky-ts#TEST-LSP-HOVER-WORDS
  it("says each coverage bucket in words, never by its raw name", async () => {
    const coverage = async (line: number) => (await hover(line)).split("\n").find((l) => l.startsWith("Coverage: "));
    expect(await coverage(0)).toBe("Coverage: no test plan");
    expect(await coverage(1)).toBe("Coverage: every test manual");
    expect(await coverage(2)).toBe("Coverage: some tests automated, some manual");
    expect(await coverage(3)).toBe("Coverage: every test automated");
    for (let line = 0; line < 4; line++) expect(await hover(line)).not.toMatch(/[a-z]_test_plan/);
  });

  // speky:speky-ts#TEST-LSP-HOVER-TEXT
  it("shows bare URLs, www. names, domains and e-mail addresses of spec text as text in every renderer", async () => {
    const markdown = await hover(4);
    expect(markdown).toContain("**R-URL** — Links in");
    for (const [name, render] of renderers) {
      const html = render(markdown);
      expect({ name, links: html.match(/<a\b[^>]*>/g) ?? [] }).toEqual({ name, links: [] });
      expect(html).not.toMatch(/<img\b/);
      // The text itself is intact once rendered: the escapes are invisible.
      const text = html.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&");
      expect(text).toContain(`${URLS}; docs at example.com/guide and a@b.io.`);
      expect(text).toContain("Links in www.example.com and https://example.com/short");
    }
  });
});
