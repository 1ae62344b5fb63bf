// The one helper for repository text in Markdown (src/text/markdown-inline.ts), in-process: spec text
// reads as written where nothing in it is markup, and nothing in it is markup once rendered.
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { codeSpan, plainText } from "../../src/text/markdown-inline.js";
import { htmlText } from "../support/html-text.js";

const fuzzy = new MarkdownIt({ linkify: true });
fuzzy.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });
const renderers: [string, (m: string) => string][] = [
  ["marked (GFM)", (m) => marked.parseInline(m, { gfm: true, async: false }) as string],
  ["markdown-it (fuzzy linkify)", (m) => fuzzy.renderInline(m)],
];

describe("plainText and codeSpan", () => {
  // speky:speky-ts#TMD-PLAIN-TEXT
  it("leaves ordinary spec text as written and defuses every mark, link, autolink and mention", () => {
    for (const ordinary of ["The cart sums its lines, rounded.", "A discount of 10% applies (e.g. 10.5 euros).", "snake_case and a-b: c"]) {
      expect(plainText(ordinary)).toBe(ordinary);
    }
    const hostile = [
      "*b* _i_ `c` [l](javascript:x) ![i](https://x.io/p.png) <b>h</b> &amp; ~~s~~ $m$ a|b",
      "https://x.com/a www.example.org example.com ana@example.com mailto:ana@example.com //cdn.example.net @team",
    ];
    for (const text of hostile) {
      for (const [name, render] of renderers) {
        const html = render(plainText(text));
        expect({ name, markup: html.match(/<[^>]+>/g) ?? [] }).toEqual({ name, markup: [] });
        expect(htmlText(html)).toBe(text);
      }
    }
    expect(plainText("a\nb\u001b\u202e")).toBe("a b\\\\x1b\\\\u202e");
  });

  // speky:speky-ts#TMD-CODE-SPAN
  it("fences IDs, paths and symbols in more backticks than they hold, never escaped", () => {
    expect(codeSpan("src/a_b.py:1-2")).toBe("`src/a_b.py:1-2`");
    expect(codeSpan("a``b")).toBe("```a``b```");
    expect(codeSpan("`x")).toBe("`` `x ``");
    for (const text of ["a``b", "`x", "REQ-5", "<img src=x> @team [a](b)"]) {
      expect(htmlText(marked.parseInline(codeSpan(text), { async: false }) as string)).toBe(`<code>${text}</code>`);
    }
  });
});
