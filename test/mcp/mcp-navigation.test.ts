// The tools beyond speky's nine (search_text, find_code_references, list_problems,
// get_status) and the paging every list tool accepts, through the SDK client on the built
// server; whole structuredContent objects are compared.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { call, connect, domainError, MCP_FIXTURE, ok, READ_ONLY, type Session, TOOL_NAMES } from "../support/mcp.js";
import { copyFixture, REPO } from "../support/process.js";

const LIVE_FIXTURE = "fixtures/mcp-live/speky.yaml";
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

// Every tool answering a list pages it; the three that answer one item page the list they hold
// (code references of an item, problems of get_status), which may be as long as the project.
// changes_since answers one document of several lists, bounded instead (test/diff/diff-mcp.test.ts).
const PAGED = TOOL_NAMES.filter((name) => name !== "changes_since");

const hit = (id: string, kind: string, short: string, score: number) => ({ id, kind, category: "functional", short, score });
const LOGIN = {
  project: "live",
  file: "src/auth.py",
  line: 5,
  symbol: "login",
  is_test: false,
  id: "REQ-LOGIN",
  kind: "requirement",
  short: "Log in with a password",
};
const LOGOUT = {
  project: "live",
  file: "src/auth.py",
  line: 16,
  symbol: "Session.close",
  is_test: false,
  id: "REQ-LOGOUT",
  kind: "requirement",
  short: "Log out",
};
const TIMEOUT = {
  project: "live",
  file: "src/auth.py",
  line: 21,
  symbol: null,
  is_test: false,
  id: "REQ-TIMEOUT",
  kind: "requirement",
  short: "Idle sessions time out",
};
const TYPO = { project: "live", file: "src/auth.py", line: 26, symbol: "typo", is_test: false, id: "REQ-LOGN", kind: "unknown" };
const TEST_LOGIN = {
  project: "live",
  file: "src/test_auth.py",
  line: 5,
  symbol: "test_login",
  is_test: true,
  id: "T-LOGIN",
  kind: "test",
  short: "Log in and out",
};

const PROBLEMS = [
  { file: "notes/todo.txt", line: 1, column: 9, severity: "warning", message: "no grammar for this file type: tag not scanned" },
  { file: "specs/tests.yaml", line: 15, column: 5, severity: "warning", message: "test 'T-TIMEOUT': unknown field 'owner' (ignored)" },
  {
    file: "src/auth.py",
    line: 25,
    column: 3,
    severity: "error",
    message: "tag speky:live#REQ-LOGN names an unknown ID 'REQ-LOGN'; did you mean REQ-LOGIN?",
  },
];

let live: Session;
let rich: Session;
beforeAll(async () => {
  [live, rich] = await Promise.all([connect([LIVE_FIXTURE]), connect([MCP_FIXTURE, "-C", "fixtures/mcp/extra/late.csv"])]);
});
afterAll(async () => {
  await live?.close();
  await rich?.close();
});

async function inputError(session: Session, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await session.client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0].text;
}

describe("tools/list", () => {
  it("describes the new tools like the others, and offers limit and cursor on every list tool", async () => {
    const { tools } = await live.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["search_text", "find_code_references", "list_problems", "get_status"]) {
      const tool = byName.get(name)!;
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(100);
      expect(tool.annotations).toEqual(READ_ONLY);
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(byName.get("search_text")!.inputSchema.required).toEqual(["query"]);
    expect(byName.get("find_code_references")!.inputSchema.required).toEqual(["file"]);
    expect(Object.keys(byName.get("get_status")!.inputSchema.properties!)).toEqual(["limit", "cursor"]);
    expect(tools.filter((t) => "cursor" in (t.inputSchema.properties ?? {})).map((t) => t.name)).toEqual(PAGED);
    for (const name of PAGED) {
      const tool = byName.get(name)!;
      expect(tool.inputSchema.properties!.limit).toEqual({
        type: "integer",
        minimum: 1,
        description: "Page size: at most this many items, and a nextCursor to call again for the rest",
      });
      expect(tool.outputSchema!.properties).toHaveProperty("nextCursor");
      expect(tool.inputSchema.required ?? []).not.toContain("limit");
    }
  });
});

describe("search_text", () => {
  const search = (args: Record<string, unknown>) => ok(live.client, "search_text", args);

  // speky:speky-ts#TMCP-SEARCH-TEXT
  it("ranks requirements and tests by their ID, short and long texts", async () => {
    expect(await search({ query: "timeout" })).toEqual({
      results: [
        hit("T-TIMEOUT", "test", "Wait for the timeout", 2.021),
        hit("REQ-TIMEOUT", "requirement", "Idle sessions time out", 1.781),
      ],
    });
    expect(await search({ query: "log out" })).toEqual({
      results: [
        hit("REQ-LOGOUT", "requirement", "Log out", 3.272),
        hit("REQ-TIMEOUT", "requirement", "Idle sessions time out", 2.52),
        hit("T-LOGIN", "test", "Log in and out", 2.423),
        hit("REQ-LOGIN", "requirement", "Log in with a password", 1.326),
        hit("T-TIMEOUT", "test", "Wait for the timeout", 0.465),
      ],
    });
    expect(((await search({ query: "REQ-LOGIN" })) as { results: { id: string }[] }).results[0].id).toBe("REQ-LOGIN");
  });

  // speky:speky-ts#TMCP-SEARCH-TEXT
  it("searches the client statement and the test steps, by prefix, ignoring case and accents", async () => {
    expect(await search({ query: "shared computer" })).toEqual({
      results: [hit("REQ-TIMEOUT", "requirement", "Idle sessions time out", 3.249)],
    });
    expect(await search({ query: "pytest" })).toEqual({ results: [hit("T-LOGIN", "test", "Log in and out", 1.424)] });
    // "time" is a word of REQ-TIMEOUT's short, and the prefix of T-TIMEOUT's "timeout".
    expect(await search({ query: "time" })).toEqual({
      results: [
        hit("REQ-TIMEOUT", "requirement", "Idle sessions time out", 2.196),
        hit("T-TIMEOUT", "test", "Wait for the timeout", 1.414),
      ],
    });
    const export_ = { results: [hit("REQ-EXPORT", "requirement", "Export the report", 1.622)] };
    expect(await search({ query: "DÉLAI" })).toEqual(export_);
    expect(await search({ query: "delai" })).toEqual(export_);
    expect(await search({ query: "zzz" })).toEqual({ results: [] });
  });

  // speky:speky-ts#TMCP-SEARCH-TEXT
  it("filters by kind", async () => {
    expect(await search({ query: "timeout", kind: "test" })).toEqual({
      results: [hit("T-TIMEOUT", "test", "Wait for the timeout", 2.021)],
    });
    expect(await search({ query: "timeout", kind: "requirement" })).toEqual({
      results: [hit("REQ-TIMEOUT", "requirement", "Idle sessions time out", 1.781)],
    });
  });

  // speky:speky-ts#TMCP-SEARCH-TEXT
  it("answers a query without words, a wrong kind and a wrong type", async () => {
    expect(await domainError(live.client, "search_text", { query: "" })).toBe("Query '' has no word to search for");
    expect(await domainError(live.client, "search_text", { query: "?! -" })).toBe("Query '?! -' has no word to search for");
    expect(await inputError(live, "search_text", { query: "x", kind: "bogus" })).toMatch(
      /Input validation error: Invalid arguments for tool search_text: .*kind/,
    );
    expect(await inputError(live, "search_text", {})).toMatch(/Input validation error: .*query/);
    expect(await inputError(live, "search_text", { query: 42 })).toMatch(/Input validation error: .*query/);
  });

  // speky:speky-ts#TMCP-SEARCH-TEXT
  it("returns the best 20 by default, with a cursor for the rest", async () => {
    const dir = copyFixture("mcp-live");
    const many = Array.from(
      { length: 45 },
      (_, i) => `  - id: W-${String(i).padStart(2, "0")}\n    long: A widget${" widget".repeat(i % 3)}.\n`,
    );
    writeFileSync(path.join(dir, "specs/widgets.yaml"), `kind: requirements\ncategory: widgets\nrequirements:\n${many.join("")}`);
    const session = await connect(["speky.yaml", "--no-watch"], { cwd: dir, env: { SPEKY_CACHE_DIR: path.join(dir, ".cache") } });
    onTestFailed(() => console.error(`speky-mcp stderr:\n${session.stderr()}`));
    try {
      const everything = (await ok(session.client, "search_text", { query: "widget", limit: 100 })) as { results: { id: string }[] };
      expect(everything.results).toHaveLength(45);
      expect(everything).not.toHaveProperty("nextCursor");
      const first = (await ok(session.client, "search_text", { query: "widget" })) as { results: unknown[]; nextCursor: string };
      expect(first).toEqual({ results: everything.results.slice(0, 20), nextCursor: expect.any(String) });
      const second = (await ok(session.client, "search_text", { query: "widget", cursor: first.nextCursor })) as {
        results: unknown[];
        nextCursor: string;
      };
      expect(second).toEqual({ results: everything.results.slice(20, 40), nextCursor: expect.any(String) });
      expect(await ok(session.client, "search_text", { query: "widget", cursor: second.nextCursor, limit: 50 })).toEqual({
        results: everything.results.slice(40),
      });
    } finally {
      await session.close();
    }
  });
});

describe("find_code_references", () => {
  const find = (args: Record<string, unknown>) => ok(live.client, "find_code_references", args);

  // speky:speky-ts#TMCP-FIND-CODE-REFERENCES
  it("lists every tag of a file with the item each names, unknown IDs included", async () => {
    expect(await find({ file: "src/auth.py" })).toEqual({ references: [LOGIN, LOGOUT, TIMEOUT, TYPO] });
    expect(await find({ file: "src/test_auth.py" })).toEqual({ references: [TEST_LOGIN] });
    // A file that is not there is an error (test/mcp/mcp-errors.test.ts); one without tags is [].
    expect(await find({ file: "speky.yaml" })).toEqual({ references: [] });
  });

  // speky:speky-ts#TMCP-FIND-CODE-REFERENCES
  it("with a line, gives the tags of the definitions holding it (more in test/mcp/mcp-spans.test.ts)", async () => {
    // A tag's own line is above its definition's span: outside every definition here.
    for (const line of [3, 4]) expect(await find({ file: "src/auth.py", line })).toEqual({ references: [] });
    // The definition's line and a line of its body.
    for (const line of [5, 7]) expect(await find({ file: "src/auth.py", line })).toEqual({ references: [LOGIN] });
    // Inside the untagged class Session, not in its tagged method.
    expect(await find({ file: "src/auth.py", line: 15 })).toEqual({ references: [] });
    expect(await find({ file: "src/auth.py", line: 17 })).toEqual({ references: [LOGOUT] });
    // A free tag inside a body.
    expect(await find({ file: "src/auth.py", line: 22 })).toEqual({ references: [TIMEOUT] });
    expect(await find({ file: "src/auth.py", line: 27 })).toEqual({ references: [TYPO] });
    expect(await find({ file: "src/auth.py", line: 999 })).toEqual({ references: [] });
  });

  // speky:speky-ts#TMCP-FIND-CODE-REFERENCES
  it("accepts absolute, ./ and backslashed paths, and paths relative to another root or to the server's folder", async () => {
    for (const file of [
      path.join(REPO, "fixtures/mcp-live/src/auth.py"),
      "./src/auth.py",
      "src\\auth.py",
      "fixtures/mcp-live/src/auth.py",
    ]) {
      expect(await find({ file, line: 6 })).toEqual({ references: [LOGIN] });
    }
    // A sub-project's file: displayed relative to its own root, found from the top one's too.
    const sub = {
      references: [
        {
          project: "fixture_sub",
          file: "code/speed_test.go",
          line: 6,
          symbol: "Speed",
          is_test: false,
          id: "SUB-NF",
          kind: "requirement",
          short: "Sub speed",
        },
        {
          project: "fixture_sub",
          file: "code/speed_test.go",
          line: 9,
          symbol: "TestSpeed",
          is_test: true,
          id: "SUB-T1",
          kind: "test",
          short: "Sub speed test",
        },
      ],
    };
    expect(await ok(rich.client, "find_code_references", { file: "sub/code/speed_test.go" })).toEqual(sub);
    expect(await ok(rich.client, "find_code_references", { file: "code/speed_test.go" })).toEqual(sub);
    // With source_links, each reference carries its url.
    expect(await ok(rich.client, "find_code_references", { file: "src/auth.py", line: 4 })).toEqual({
      references: [
        {
          project: "fixture",
          file: "src/auth.py",
          line: 4,
          symbol: "login",
          is_test: false,
          id: "REQ-ALL",
          kind: "requirement",
          short: "Every field",
          url: "https://example.com/acme/fixture/blob/main/fixtures/mcp/src/auth.py#L4",
        },
      ],
    });
  });

  // speky:speky-ts#TMCP-FIND-CODE-REFERENCES
  it("rejects an empty file, a line below 1, a fractional line and wrong types", async () => {
    expect(await inputError(live, "find_code_references", { file: "" })).toMatch(/Input validation error: .*file/);
    expect(await inputError(live, "find_code_references", { file: "src/auth.py", line: 0 })).toMatch(/Input validation error: .*line/);
    expect(await inputError(live, "find_code_references", { file: "src/auth.py", line: 2.5 })).toMatch(/Input validation error: .*line/);
    expect(await inputError(live, "find_code_references", { file: 42 })).toMatch(/Input validation error: .*file/);
    expect(await inputError(live, "find_code_references", {})).toMatch(/Input validation error: .*file/);
  });
});

describe("list_problems and get_status", () => {
  it("lists what speky check reports: dangling tags with a suggestion, scanner and loader warnings", async () => {
    expect(await ok(live.client, "list_problems")).toEqual({ problems: PROBLEMS });
    expect(await ok(rich.client, "list_problems")).toEqual({
      problems: [{ file: "src/auth.py", line: 19, column: 13, severity: "warning", message: "tag in a string literal is not a tag" }],
    });
  });

  it("gives the load time, the counts and the loader's problems", async () => {
    const status = (await ok(live.client, "get_status")) as { loaded_at: string };
    expect(status).toEqual({
      loaded_at: expect.stringMatching(ISO),
      stale: false,
      files: 6,
      requirements: 4,
      tests: 2,
      code_references: 5,
      problems: [PROBLEMS[1]],
    });
    expect(Date.now() - Date.parse(status.loaded_at)).toBeLessThan(10 * 60_000);
    const answer = await live.client.callTool({ name: "get_status", arguments: {} });
    expect(answer._meta).toBeUndefined();
  });
});

describe("paging", () => {
  type Answer = Record<string, unknown> & { nextCursor?: string };

  /** Every page of a call, with `limit`, following nextCursor to the end. */
  async function pages(session: Session, name: string, args: Record<string, unknown>, limit: number): Promise<Answer[]> {
    const out: Answer[] = [];
    let cursor: string | undefined;
    do {
      const page = (await ok(session.client, name, { ...args, limit, ...(cursor ? { cursor } : {}) })) as Answer;
      out.push(page);
      cursor = page.nextCursor;
      expect(out.length).toBeLessThan(100);
    } while (cursor);
    return out;
  }

  /** Each list field concatenated over the pages, the other fields as in the first page. */
  function joined(all: Answer[], fields: string[]): Answer {
    const { nextCursor: _cursor, ...head } = all[0];
    const whole: Answer = { ...head };
    for (const f of fields) whole[f] = all.flatMap((p) => p[f] as unknown[]);
    return whole;
  }

  const CASES: ["rich" | "live", string, Record<string, unknown>, string[]][] = [
    ["rich", "search_requirements", {}, ["requirements"]],
    ["rich", "search_requirements", { tag: "auth" }, ["requirements"]],
    ["rich", "search_tests", {}, ["tests"]],
    ["rich", "search_tests", { tester_of: "REQ-ALL" }, ["tests"]],
    ["rich", "list_references_to", { id: "REQ-BASE" }, ["requirements"]],
    ["rich", "test_plan_coverage", {}, ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"]],
    [
      "rich",
      "test_plan_coverage",
      { category: "functional" },
      ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"],
    ],
    ["rich", "least_tested_requirements", {}, ["requirements"]],
    ["rich", "least_tested_requirements", { count: 5 }, ["requirements"]],
    ["rich", "list_all_tags", {}, ["tags"]],
    ["rich", "list_all_ids", {}, ["requirements", "tests"]],
    ["live", "search_text", { query: "log out" }, ["results"]],
    ["live", "find_code_references", { file: "src/auth.py" }, ["references"]],
    ["live", "list_problems", {}, ["problems"]],
  ];

  it("gives back the unpaged answer, page by page, for every list tool and every page size", async () => {
    for (const [which, name, args, fields] of CASES) {
      const session = which === "rich" ? rich : live;
      const whole = (await ok(session.client, name, args)) as Answer;
      expect(whole).not.toHaveProperty("nextCursor");
      const total = fields.reduce((n, f) => n + (whole[f] as unknown[]).length, 0);
      for (const limit of [1, 2, 3, total, total + 1]) {
        const all = await pages(session, name, args, limit);
        expect(all).toHaveLength(Math.max(1, Math.ceil(total / limit)));
        for (const page of all) {
          // Every page has every list field, at most `limit` items in all.
          expect(fields.reduce((n, f) => n + (page[f] as unknown[]).length, 0)).toBeLessThanOrEqual(limit);
        }
        expect(all.at(-1)).not.toHaveProperty("nextCursor");
        expect(joined(all, fields), `${name} ${JSON.stringify(args)} limit ${limit}`).toEqual(whole);
      }
    }
  });

  it("pages several lists as one sequence", async () => {
    const first = (await ok(live.client, "list_all_ids", { limit: 3 })) as Answer;
    expect(first).toEqual({ requirements: ["REQ-EXPORT", "REQ-LOGIN", "REQ-LOGOUT"], tests: [], nextCursor: expect.any(String) });
    expect(await ok(live.client, "list_all_ids", { limit: 3, cursor: first.nextCursor })).toEqual({
      requirements: ["REQ-TIMEOUT"],
      tests: ["T-LOGIN", "T-TIMEOUT"],
    });
    // A cursor without limit reads everything left.
    expect(await ok(live.client, "list_all_ids", { cursor: first.nextCursor })).toEqual({
      requirements: ["REQ-TIMEOUT"],
      tests: ["T-LOGIN", "T-TIMEOUT"],
    });
  });

  it("refuses a malformed cursor, another call's cursor and a limit below 1", async () => {
    expect(await domainError(live.client, "list_all_ids", { cursor: "garbage" })).toBe(
      "Invalid cursor 'garbage': pass a nextCursor exactly as received",
    );
    const tagged = (await ok(rich.client, "search_requirements", { tag: "auth", limit: 1 })) as Answer;
    expect(await domainError(rich.client, "search_requirements", { tag: "output:pdf", cursor: tagged.nextCursor })).toBe(
      "Invalid cursor: it was issued for other arguments of search_requirements; pass the same ones",
    );
    expect(await domainError(rich.client, "search_tests", { cursor: tagged.nextCursor })).toBe(
      "Invalid cursor: it was issued for other arguments of search_tests; pass the same ones",
    );
    for (const limit of [0, -1, 1.5, "2"]) {
      expect(await inputError(rich, "list_all_ids", { limit })).toMatch(/Input validation error: .*limit/);
    }
    // Domain errors come first: a bad filter is reported whatever the paging.
    expect(await domainError(rich.client, "search_requirements", { tag: "nope", limit: 1 })).toBe("Tag 'nope' not found");
    expect((await call(rich.client, "list_all_tags", { limit: 1 })).isError).toBe(false);
  });
});
