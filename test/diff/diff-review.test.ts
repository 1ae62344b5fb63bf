// `speky diff` as a reviewer reads it, on a real git history (test/support/review-history.ts):
// the pull request that adopts speky, an ID renamed, a tagged function moved to another file and
// another renamed where it stands, code under free tags edited, a manifest's keys changed; each
// in the JSON document, and the Markdown rendered as GitHub's and editors' parsers render it.
import { existsSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheEnv, removeScratch } from "../support/git-repo.js";
import { htmlText } from "../support/html-text.js";
import { runSpeky } from "../support/process.js";
import { HOSTILE_FILE, HOSTILE_SHORT, type ReviewHistory, reviewHistory } from "../support/review-history.js";

afterAll(removeScratch);

const ref = (id: string, file: string, line: number, symbol: string | null) => ({
  id,
  project: "shop",
  file,
  line,
  symbol,
  is_test: false,
});

let h: ReviewHistory;
let adoption: Record<string, unknown> & { [k: string]: any };
let review: Record<string, unknown> & { [k: string]: any };
let text: string;
let markdown: string;
beforeAll(() => {
  h = reviewHistory();
  const env = cacheEnv();
  const run = (...args: string[]) => {
    const r = runSpeky(["diff", ...args, "shop/speky.yaml"], h.repo.dir, env);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    return r.stdout;
  };
  adoption = JSON.parse(run(h.before, h.adoption, "--format", "json"));
  review = JSON.parse(run(h.adoption, h.review, "--format", "json"));
  text = run(h.adoption, h.review);
  markdown = run(h.adoption, h.review, "--format", "markdown");
}, 60_000);

describe("speky diff on a review's history", () => {
  // speky:speky-ts#TDIFF-ADOPTION
  it("compares the commit that adopts speky with its parent (no manifest) as everything added, and exits 0", () => {
    expect(adoption.without_specification).toEqual(["base"]);
    expect(adoption.load_errors).toBeUndefined();
    expect(adoption.requirements.added.map((s: { id: string }) => s.id)).toEqual(["REQ-1", "REQ-2", "REQ-3", "REQ-4", "REQ-5"]);
    expect(adoption.tests.added).toEqual([{ id: "TST-1", category: "cart", project: "shop" }]);
    expect(adoption.code_references.added).toHaveLength(4);
    expect(adoption.code_references.removed).toEqual([]);
    expect(adoption.manifests).toEqual([
      { file: "shop/speky.yaml", project: "shop", change: "added", keys: ["code_sources", "files", "kind", "name"] },
    ]);
  });

  // speky:speky-ts#TDIFF-RENAMED
  it("reports an ID changed with every other field equal as renamed, in neither added nor removed", () => {
    expect(review.requirements.renamed).toEqual([{ from: "REQ-5", to: "REQ-6", project: "shop" }]);
    expect(review.requirements.added.map((s: { id: string }) => s.id)).toEqual(["REQ-9"]);
    expect(review.requirements.removed).toEqual([]);
    expect(review.tests.renamed).toEqual([]);
    expect(text).toContain("\n  > REQ-5 → REQ-6\n");
    expect(markdown).toContain("\n- renamed `REQ-5` → `REQ-6`\n");
  });

  // speky:speky-ts#TDIFF-MOVED
  it("reports a tag that went with its definition to another file, and one whose definition was renamed in place, as moved", () => {
    expect(review.code_references.moved).toEqual([
      {
        id: "REQ-1",
        project: "shop",
        from: ref("REQ-1", "shop/src/cart.py", 3, "Cart.total"),
        to: ref("REQ-1", "shop/src/cart.py", 3, "Cart.grand_total"),
      },
      {
        id: "REQ-2",
        project: "shop",
        from: ref("REQ-2", "shop/src/cart.py", 8, "discount"),
        to: ref("REQ-2", "shop/src/pricing.py", 2, "discount"),
      },
    ]);
    expect(review.code_references.added).toEqual([ref("REQ-9", HOSTILE_FILE, 2, "pay")]);
    expect(review.code_references.removed).toEqual([]);
    expect(markdown).toContain("\n- moved `REQ-2` from `shop/src/cart.py:8` on `discount` to `shop/src/pricing.py:2` on `discount`\n");
  });

  // speky:speky-ts#TDIFF-FREE-TAG-IMPACT
  it("counts a free tag for its innermost definition, and a module docstring's for its file: their requirements are not suspect", () => {
    const impact = review.impact.filter((e: { symbol: string | null }) => e.symbol === null);
    expect(impact).toEqual([
      { project: "shop", file: "shop/src/cart.py", symbol: null, start_line: 7, end_line: 9, ids: ["REQ-4"] },
      { project: "shop", file: "shop/src/util.py", symbol: null, start_line: 1, end_line: 9, ids: ["REQ-3"] },
    ]);
    expect(review.requirements.changed.map((c: { id: string }) => c.id)).toEqual(["REQ-3", "REQ-4"]);
    expect(review.suspect).toEqual([]);
  });

  // speky:speky-ts#TDIFF-MANIFESTS
  it("lists each manifest whose keys changed, with the keys", () => {
    expect(review.manifests).toEqual([
      { file: "shop/speky.yaml", project: "shop", change: "changed", keys: ["code_sources", "coverage_categories"] },
    ]);
    expect(text).toContain("\nmanifests: 1 changed\n  ~ shop/speky.yaml  code_sources, coverage_categories\n");
  });

  // speky:speky-ts#TDIFF-REPOSITORY-PATHS
  it("gives every file from the repository's top, where it opens, and names every entry's project", () => {
    const heads = [...review.code_references.added, ...review.code_references.moved.map((m: { to: unknown }) => m.to), ...review.impact];
    for (const entry of [...heads, ...review.manifests]) {
      expect(entry.project).toBe("shop");
      expect(entry.file.startsWith("shop/")).toBe(true);
    }
    // The head is the last commit: its files are the working tree's.
    for (const entry of heads) expect(existsSync(path.join(h.repo.dir, entry.file))).toBe(true);
    for (const list of [review.requirements.added, review.requirements.changed, review.requirements.renamed, review.suspect]) {
      for (const entry of list) expect(entry.project).toBe("shop");
    }
  });
});

const fuzzy = new MarkdownIt({ linkify: true });
fuzzy.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });
const renderers: [string, (m: string) => string][] = [
  ["marked (GFM)", (m) => marked.parse(m, { gfm: true, async: false })],
  ["markdown-it (linkify)", (m) => new MarkdownIt({ linkify: true }).render(m)],
  ["markdown-it (fuzzy linkify)", (m) => fuzzy.render(m)],
];

describe("speky diff --format markdown and text, read", () => {
  // speky:speky-ts#TDIFF-MARKDOWN-SAFE
  it("shows IDs, paths and symbols as code spans and spec text as plain text that neither formats, links nor mentions", () => {
    // No backslash escapes in what is code: IDs and paths read as written.
    expect(markdown).not.toMatch(/REQ\\-|src\\\/|\.py\\:/);
    expect(markdown).toContain(`- added \`REQ-9\` at \`\`\`${HOSTILE_FILE.replace("\u001b", "\\x1b")}:2\`\`\` on \`pay\``);
    for (const [name, render] of renderers) {
      const html = render(markdown);
      expect({ name, links: html.match(/<a\b[^>]*>/g) ?? [] }).toEqual({ name, links: [] });
      const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
      expect({ name, tags: [...tags].filter((t) => !["h2", "h3", "p", "ul", "li", "strong", "code"].includes(t)) }).toEqual({
        name,
        tags: [],
      });
      // The hostile title reads as written once rendered: the escapes are invisible.
      const line = html.split("\n").find((l) => l.includes("REQ-9</code> Pay"))!;
      expect(htmlText(line.replace(/<[^>]+>/g, ""))).toBe(`added REQ-9 ${HOSTILE_SHORT}`);
      const codes = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => htmlText(m[1]));
      expect(codes).toContain(`${HOSTILE_FILE.replace("\u001b", "\\x1b")}:2`);
    }
    // A mention needs an '@' that is markup: every one outside code is escaped.
    const outsideCode = markdown.replace(/(`+)[\s\S]*?\1/g, "");
    expect(outsideCode.match(/(?<!\\)@/g) ?? []).toEqual([]);
  });

  // speky:speky-ts#TDIFF-TEXT-SAFE
  it("prints text for a terminal with no control character raw, coverage in words and the moves", () => {
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain(`  + REQ-9  ${HOSTILE_FILE.replace("\u001b", "\\x1b")}:2  pay\n`);
    expect(text).toContain("\n  > REQ-2  shop/src/cart.py:8  discount  →  shop/src/pricing.py:2  discount\n");
    expect(text).toContain("\n  shop/src/util.py:1-9  (around a free tag)  REQ-3\n");
  });
});
