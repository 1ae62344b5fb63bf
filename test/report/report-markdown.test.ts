// `speky report --format markdown` read as GitHub and editors read it: the built command on
// the shop fixture, with a source file whose name is made to inject Markdown, rendered by
// marked (GFM) and markdown-it (linkify), never judged by a look at the text.
import { writeFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { codeSpan as mdCode } from "../../src/text/markdown-inline.js";
import { htmlText } from "../support/html-text.js";
import { runSpeky } from "../support/process.js";
import { reportFixture } from "../support/report.js";

/** A file name with a backtick run, HTML, a mention, a link, a URL and table pipes. */
const HOSTILE = "src/x``y <img src=q> @everyone [a](javascript:b) www.example.com | ok.py";

const renderers: [string, (markdown: string) => string][] = [
  ["marked (GFM)", (m) => marked.parse(m, { gfm: true, async: false })],
  ["markdown-it (linkify)", (m) => new MarkdownIt({ linkify: true }).render(m)],
];

describe("speky report --format markdown", () => {
  // speky:speky-ts#TREPORT-MARKDOWN-COLUMNS
  it("names each column of the coverage table once", () => {
    const md = runSpeky(["report", "speky.yaml", "--format", "markdown"], reportFixture("shop")).stdout;
    const header = md.split("\n").find((l) => l.startsWith("| Category |"))!;
    const names = header
      .split("|")
      .map((c) => c.trim())
      .filter(Boolean);
    expect(names).toEqual(["Category", "No test plan", "Manual", "Partially manual", "Automated", "Total", "% automated"]);
    expect(new Set(names).size).toBe(names.length);
  });

  // speky:speky-ts#TREPORT-MARKDOWN-PATHS
  it("shows the paths of problems as code, exactly, whatever their characters, and nothing of them as markup", () => {
    const dir = reportFixture("shop");
    writeFileSync(path.join(dir, HOSTILE), "# speky:shop#CART-NOPE\ndef f():\n    pass\n");
    const md = runSpeky(["report", "speky.yaml", "--format", "markdown"], dir).stdout;
    const line = md.split("\n").find((l) => l.includes("CART-NOPE"))!;
    expect(line).toBe(`- \`\`\`${HOSTILE}:1:3\`\`\`: error: tag speky:shop#CART-NOPE names an unknown ID 'CART-NOPE'`);
    // The plain path too, unescaped: `src/cart.py:19:3`.
    expect(md).toContain("- `src/cart.py:19:3`: error: ");
    for (const [name, render] of renderers) {
      const html = render(line);
      const codes = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => htmlText(m[1]));
      expect({ name, codes }).toEqual({ name, codes: [`${HOSTILE}:1:3`] });
      const outside = html.replace(/<code>[\s\S]*?<\/code>/g, "");
      expect({ name, markup: outside.match(/<(?!\/?(p|ul|li)>)[^>]+>/g) ?? [] }).toEqual({ name, markup: [] });
    }
  });

  it("fences code with more backticks than it holds, padded where it starts or ends with one", () => {
    expect(mdCode("src/a.py:1:2")).toBe("`src/a.py:1:2`");
    expect(mdCode("a`b")).toBe("``a`b``");
    expect(mdCode("`x")).toBe("`` `x ``");
    expect(mdCode("a\nb")).toBe("`a b`");
    for (const text of ["a`b", "`x", "x``", " y", "``` z"]) {
      expect(htmlText(marked.parseInline(mdCode(text), { async: false }))).toBe(`<code>${text}</code>`);
    }
  });
});
