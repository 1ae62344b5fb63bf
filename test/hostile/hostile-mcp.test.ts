// Issue 25, the MCP server: every answer, page and item under the documented bound, with what
// was cut said in `_meta`; no error echoes its input whole; search_text bounds its query and
// yields to other calls while it ranks. Real server processes; the SDK client checks every
// structuredContent against the published outputSchema.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ERROR_CHARS } from "../../src/mcp/answers/bounded-errors.js";
import { MAX_ANSWER_CHARS, TRUNCATED_META_KEY } from "../../src/mcp/answers/fit.js";
import { MAX_PAGE_CHARS } from "../../src/mcp/answers/paging.js";
import { MAX_QUERY_WORDS } from "../../src/model/search.js";
import { connect, RawServer, type Session } from "../support/mcp.js";
import { tempDir } from "../support/process.js";

const scratch = tempDir("speky-hostile-mcp-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(scratch, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return path.join(dir, "speky.yaml");
}

const TITLE = "T".repeat(6_000);
/** The tree: 100 tests each naming 1,000 requirements with 6 KB titles. */
function titlesTree(): string {
  const reqs = Array.from({ length: 1_000 }, (_, i) => `  - id: R${i}\n    short: ${TITLE}${i}\n    long: x\n`).join("");
  const refs = Array.from({ length: 1_000 }, (_, i) => `R${i}`).join(", ");
  const tests = Array.from({ length: 100 }, (_, i) => `  - id: T${i}\n    long: x\n    ref: [${refs}]\n    steps: [{action: a}]\n`).join(
    "",
  );
  return tree("titles", {
    "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml, t.yaml]\n",
    "r.yaml": `kind: requirements\ncategory: c\nrequirements:\n${reqs}`,
    "t.yaml": `kind: tests\ncategory: c\ntests:\n${tests}`,
  });
}

describe("answers", () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(["--no-watch", titlesTree()]);
  }, 120_000);
  afterAll(() => session?.close());

  // speky:speky-ts#TSEC-ANSWER-FIT
  it("cut a 12 MB get_test to the bound, saying what was cut in _meta, and read its resource the same way", async () => {
    const result = await session.client.callTool({ name: "get_test", arguments: { id: "T0" } });
    const text = (result.content as { text: string }[])[0].text;
    expect(text.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(JSON.stringify(result.structuredContent)).toBe(text);
    const structured = result.structuredContent as { id: string; ref: { id: string }[]; steps: unknown[] };
    expect(structured.id).toBe("T0");
    expect(structured.ref.length).toBeGreaterThan(0);
    expect(structured.ref.length).toBeLessThan(1_000);
    expect(result._meta?.[TRUNCATED_META_KEY]).toMatch(
      new RegExp(`^this answer was cut to [\\d,]+ characters of JSON: .*ref: ${structured.ref.length} of 1,000 items`),
    );
    const read = await session.client.readResource({ uri: "speky://test/T0" });
    const contents = read.contents[0] as { text: string };
    expect(contents.text.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(read._meta?.[TRUNCATED_META_KEY]).toMatch(/^speky:\/\/test\/… was cut to .*ref: \d+ of 1,000 items/);
    // A small answer is whole and carries no note.
    const small = await session.client.callTool({ name: "get_requirement", arguments: { id: "R1" } });
    expect(small._meta?.[TRUNCATED_META_KEY]).toBeUndefined();
    expect((small.structuredContent as { short: string }).short).toBe(`${TITLE}1`);
  });

  // speky:speky-ts#TSEC-ANSWER-FIT
  it("page resources/list under the bound, every resource once, titles cut and said so", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await session.client.listResources(cursor === undefined ? {} : { cursor });
      expect(JSON.stringify(page.resources).length).toBeLessThanOrEqual(MAX_PAGE_CHARS);
      expect(page._meta?.[TRUNCATED_META_KEY]).toMatch(/titles cut at 1,000 characters/);
      seen.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(1_100);
    expect(new Set(seen).size).toBe(1_100);
  });
});

describe("errors", () => {
  // speky:speky-ts#TSEC-ERROR-ECHO
  it("never echo a 900 KB cursor, tool name, URI, resource ID or completion reference whole", async () => {
    const server = new RawServer(["--no-watch", titlesTree()]);
    try {
      await server.initialize();
      // Under the SDK's own limit on URIs (1,000,000 characters), so that each reaches its "not found".
      const huge = "x".repeat(900_000);
      server.request(1, "tools/call", { name: "list_all_ids", arguments: { cursor: huge } });
      server.request(2, "tools/call", { name: huge, arguments: {} });
      server.request(3, "resources/read", { uri: `file:///${huge}` });
      server.request(4, "resources/read", { uri: `speky://requirement/${huge}` });
      server.request(5, "completion/complete", {
        ref: { type: "ref/resource", uri: `speky://${huge}/{id}` },
        argument: { name: "id", value: "R" },
      });
      server.request(6, "resources/list", { cursor: huge });
      server.request(7, "tools/call", { name: "get_requirement", arguments: { id: huge } });
      const all = (await server.waitForLines(8)) as {
        id: number;
        error?: { message: string };
        result?: { content?: { text: string }[] };
      }[];
      const lines = all.filter((l) => l.id !== 0);
      expect(lines.map((l) => l.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      for (const line of lines) {
        // A completion of an unknown reference completes nothing (a result with no content block).
        const text = line.error?.message ?? line.result!.content?.[0]?.text ?? JSON.stringify(line.result);
        expect(JSON.stringify(line).length, JSON.stringify(line).slice(0, 300)).toBeLessThan(4 * MAX_ERROR_CHARS);
        expect(text).not.toContain("x".repeat(MAX_ERROR_CHARS));
        if (text.includes("xxxx")) expect(text).toMatch(/\(900,\d\d\d characters\)/);
      }
      expect(server.stdout.length).toBeLessThan(16 * MAX_ERROR_CHARS);
    } finally {
      await server.endInput();
    }
  });
});

describe("search_text", () => {
  const big = () => {
    const reqs = Array.from(
      { length: 20_000 },
      (_, i) =>
        `  - id: S${i}\n    short: alpha${i % 97} beta${i % 89} gamma${i % 83}\n    long: delta${i % 79} epsilon${i} zeta${i % 7}\n`,
    ).join("");
    return tree("search", {
      "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml]\n",
      "r.yaml": `kind: requirements\ncategory: c\nrequirements:\n${reqs}`,
    });
  };

  // speky:speky-ts#TSEC-SEARCH-BOUNDS
  it("refuses a 550 KB query of 100,000 words at once, quoted short, and answers a ping while it ranks a long one", async () => {
    const server = new RawServer(["--no-watch", big()]);
    try {
      await server.initialize();
      const words = Array.from({ length: 100_000 }, (_, i) => `w${i}`).join(" ");
      server.request(1, "tools/call", { name: "search_text", arguments: { query: words } });
      const many = Array.from({ length: MAX_QUERY_WORDS + 1 }, (_, i) => `q${i}`).join(" ");
      server.request(2, "tools/call", { name: "search_text", arguments: { query: many } });
      const answers = (await server.waitForLines(3)) as {
        id: number;
        result: { isError: boolean; structuredContent: { error: string } };
      }[];
      const first = answers.find((l) => l.id === 1)!;
      const second = answers.find((l) => l.id === 2)!;
      expect(first.result.isError).toBe(true);
      expect(first.result.structuredContent.error).toBe(
        `Query '${words.slice(0, 100)}…' (${words.length.toLocaleString("en-US")} characters) is too long: at most 1000 characters and 32 words`,
      );
      expect(second.result.structuredContent.error).toMatch(/has 33 words: at most 32 are searched together$/);
      // Thirty-two one-letter prefixes: each stands for up to 1,000 words over 20,000 items.
      const letters = "a b d e g z q1 q2 q3 q4 q5 q6 q7 q8 q9 alpha beta gamma delta epsilon zeta e1 e2 e3 e4 e5 e6 e7 e8 e9 a1 b1";
      server.request(3, "tools/call", { name: "search_text", arguments: { query: letters, limit: 5 } });
      server.request(4, "ping");
      const lines = (await server.waitForLines(5)) as { id: number; result: { structuredContent?: { results: unknown[] } } }[];
      // The ping, sent after the search, is answered before it: the search yielded.
      expect(lines.slice(3).map((l) => l.id)).toEqual([4, 3]);
      expect(lines[4].result.structuredContent!.results).toHaveLength(5);
    } finally {
      await server.endInput();
    }
  });
});
