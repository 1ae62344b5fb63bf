// speky-mcp --http answers as speky-mcp on stdio does: every tool, its errors and its pages,
// through the SDK's Streamable HTTP client against the SDK's stdio client, on the fixture trees.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, MCP_FIXTURE, type Session, TOOL_NAMES } from "../support/mcp.js";
import { connectHttp, type HttpClient, type HttpServerProcess, startHttp } from "../support/mcp-http.js";

type Args = Record<string, unknown>;
type Structured = Record<string, unknown> & { nextCursor?: string };

/** The answer as compared: a JSON-RPC error is compared by its code and message; get_status's load time is the process's own. */
async function answer(client: Client, name: string, args: Args): Promise<unknown> {
  try {
    const result = await client.callTool({ name, arguments: args });
    if (name !== "get_status") return result;
    return JSON.parse(JSON.stringify(result).replace(/"loaded_at\\?":\\?"[^"\\]*\\?"/g, '"loaded_at":"…"'));
  } catch (error) {
    const e = error as { code?: number; message: string };
    return { rpcError: e.code, message: e.message };
  }
}

/** Every page of a call (nextCursor followed), each answer whole. */
async function pages(client: Client, name: string, args: Args): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await answer(client, name, cursor === undefined ? args : { ...args, cursor });
    out.push(result);
    cursor = (result as { structuredContent?: Structured }).structuredContent?.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}

/** The calls: every tool, on every ID, tag and tagged file of the tree, with paging and the domain and protocol errors. */
async function calls(client: Client): Promise<[string, Args][]> {
  const ids = (await client.callTool({ name: "list_all_ids", arguments: {} })).structuredContent as {
    requirements: string[];
    tests: string[];
  };
  const tags = ((await client.callTool({ name: "list_all_tags", arguments: {} })).structuredContent as { tags: string[] }).tags;
  const list: [string, Args][] = [
    ["search_requirements", {}],
    ["search_requirements", { limit: 2 }],
    ["search_requirements", { tag: "no-such-tag" }],
    ["search_tests", {}],
    ["search_tests", { limit: 1 }],
    ["test_plan_coverage", {}],
    ["test_plan_coverage", { category: "no-such-category" }],
    ["least_tested_requirements", { count: 3 }],
    ["least_tested_requirements", { limit: 2 }],
    ["list_all_tags", { limit: 1 }],
    ["list_all_ids", { limit: 3 }],
    ["search_text", { query: "test" }],
    ["list_problems", {}],
    ["get_status", {}],
    ["changes_since", { base: "HEAD" }],
    ["get_requirement", { id: "NO-SUCH-ID" }],
    ["get_requirement", { id: 42 }],
    ["get_test", { id: "NO-SUCH-ID" }],
    ["find_code_references", { file: "no/such/file.py" }],
    ["no_such_tool", {}],
  ];
  for (const id of ids.requirements)
    list.push(["get_requirement", { id }], ["list_references_to", { id }], ["search_tests", { tester_of: id }]);
  for (const id of ids.tests) list.push(["get_test", { id }], ["get_requirement", { id }]);
  for (const tag of tags) list.push(["search_requirements", { tag }], ["least_tested_requirements", { tag }]);
  const files = new Set<string>();
  for (const [name, args] of list.filter(([n]) => n === "get_requirement" || n === "get_test")) {
    const s = ((await client.callTool({ name, arguments: args })).structuredContent ?? {}) as { code_references?: { file: string }[] };
    for (const ref of s.code_references ?? []) files.add(ref.file);
  }
  for (const file of [...files].sort()) list.push(["find_code_references", { file }], ["find_code_references", { file, line: 1 }]);
  return list;
}

describe.each([
  { tree: "fixtures/mcp", args: [MCP_FIXTURE, "-C", "fixtures/mcp/extra/late.csv"] },
  { tree: "fixtures/mcp-spans", args: ["fixtures/mcp-spans/speky.yaml"] },
])("over HTTP as over stdio: $tree", ({ args }) => {
  let stdio: Session;
  let server: HttpServerProcess;
  let remote: HttpClient;
  beforeAll(async () => {
    [stdio, server] = await Promise.all([connect(args), startHttp(["--http", "127.0.0.1:0", "--no-watch", ...args])]);
    remote = await connectHttp(server.url);
  });
  afterAll(async () => {
    await remote?.close();
    await stdio?.close();
    expect(await server?.stop()).toBe(0);
  });

  // speky:speky-ts#TMCP-HTTP-SAME
  it("lists the same tools, resources and prompts", async () => {
    const [tools, httpTools] = await Promise.all([stdio.client.listTools(), remote.client.listTools()]);
    expect(httpTools).toEqual(tools);
    expect(tools.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(await remote.client.listResources()).toEqual(await stdio.client.listResources());
    expect(await remote.client.listResourceTemplates()).toEqual(await stdio.client.listResourceTemplates());
    expect(await remote.client.listPrompts()).toEqual(await stdio.client.listPrompts());
    expect(remote.client.getServerVersion()).toEqual(stdio.client.getServerVersion());
    expect(remote.client.getServerCapabilities()).toEqual(stdio.client.getServerCapabilities());
  });

  // speky:speky-ts#TMCP-COMPLETION-UNKNOWN
  it("completes nothing for a prompt or template not served, and a served one alike, on both", async () => {
    const asks = [
      { ref: { type: "ref/prompt" as const, name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "t" } },
      { ref: { type: "ref/resource" as const, uri: "test://{x}" }, argument: { name: "x", value: "t" } },
      { ref: { type: "ref/resource" as const, uri: "speky://requirement/{id}" }, argument: { name: "id", value: "" } },
    ];
    const [overStdio, overHttp] = await Promise.all([stdio, remote].map((s) => Promise.all(asks.map((a) => s.client.complete(a)))));
    expect(overHttp).toEqual(overStdio);
    expect(overStdio.slice(0, 2)).toEqual([{ completion: { values: [], hasMore: false } }, { completion: { values: [], hasMore: false } }]);
    expect(overStdio[2].completion.values.length).toBeGreaterThan(0);
  });

  // speky:speky-ts#TMCP-HTTP-SAME
  it("gives every tool's answer, error and page as stdio does", async () => {
    const list = await calls(stdio.client);
    expect(new Set(list.map(([name]) => name))).toEqual(new Set([...TOOL_NAMES, "no_such_tool"]));
    // All at once on both: the HTTP server answers concurrent calls of one session as stdio does.
    const [overStdio, overHttp] = await Promise.all(
      [stdio.client, remote.client].map((client) => Promise.all(list.map(([name, args]) => pages(client, name, args)))),
    );
    for (const [i, [name, args]] of list.entries()) expect(overHttp[i], `${name} ${JSON.stringify(args)}`).toEqual(overStdio[i]);
    expect(overStdio.flat().length).toBeGreaterThan(list.length);
  });
});
