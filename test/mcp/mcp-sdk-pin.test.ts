// The departures from the stock MCP SDK (src/mcp/sdk/pin.ts) were written and measured against
// one SDK version. This suite fails as soon as another is installed, and shows, on the stock
// SDK itself, the behaviour each departure exists for: when a new SDK does it right, the
// matching test here fails, and that departure can go.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PINNED_SDK_VERSION } from "../../src/mcp/sdk/pin.js";
import { REPO } from "../support/process.js";

const json = (file: string) => JSON.parse(readFileSync(path.join(REPO, file), "utf8"));

/** A stock McpServer with one tool, on stdio streams of our own. */
async function stockServer(tool?: (server: McpServer) => void) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => (written += chunk.toString()));
  const server = new McpServer({ name: "stock", version: "0" });
  (tool ?? ((s) => s.registerTool("echo", { inputSchema: { id: z.string() } }, async () => ({ content: [] }))))(server);
  await server.connect(new StdioServerTransport(input, output));
  const lines = async (n: number) => {
    for (let i = 0; i < 100 && written.split("\n").length <= n; i++) await new Promise((r) => setTimeout(r, 5));
    return written
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
  };
  return { send: (line: string) => input.write(`${line}\n`), lines, close: () => server.close() };
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
};

describe("the MCP SDK the departures are pinned to", () => {
  // speky:speky-ts#TMCP-SDK-PIN
  it("is the version installed, and the exact version package.json and the lock ask for", () => {
    expect(json("node_modules/@modelcontextprotocol/sdk/package.json").version).toBe(PINNED_SDK_VERSION);
    expect(json("package.json").dependencies["@modelcontextprotocol/sdk"]).toBe(PINNED_SDK_VERSION);
    expect(json("package-lock.json").packages["node_modules/@modelcontextprotocol/sdk"].version).toBe(PINNED_SDK_VERSION);
  });

  // speky:speky-ts#TMCP-SDK-PIN
  it("still drops a line that is not JSON without an answer (departure 1: our transport)", async () => {
    const s = await stockServer();
    s.send("this is not json");
    s.send(JSON.stringify({ ...INIT, id: 2 }));
    const lines = await s.lines(1);
    expect(lines.map((l) => l.id)).toEqual([2]);
    await s.close();
  });

  // speky:speky-ts#TMCP-SDK-PIN
  it("still refuses an initialize without clientInfo with a validator's dump, and answers tools before it (departure 3)", async () => {
    const s = await stockServer();
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } }));
    s.send(JSON.stringify({ ...INIT, id: 4 }));
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope", arguments: {} } }));
    const byId = new Map((await s.lines(4)).map((l) => [l.id, l]));
    expect(byId.get(1).result.tools).toHaveLength(1);
    expect(byId.get(2).error.code).toBe(-32603);
    expect(byId.get(2).error.message).toMatch(/^\[\n/);
    expect(byId.get(3).result).toMatchObject({ isError: true });
    await s.close();
  });

  // speky:speky-ts#TMCP-SDK-PIN
  it("still checks an isError result's structuredContent against the outputSchema in its Client (departure 4, SDK #1943)", async () => {
    const server = new McpServer({ name: "stock", version: "0" });
    server.registerTool("get", { inputSchema: { id: z.string() }, outputSchema: { id: z.string() } }, async ({ id }) => ({
      content: [{ type: "text", text: "{}" }],
      structuredContent: { error: `Requirement ${id} not found` },
      isError: true,
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    await client.listTools();
    await expect(client.callTool({ name: "get", arguments: { id: "X" } })).rejects.toThrow(/does not match|structured content/i);
    await client.close();
  });

  // speky:speky-ts#TMCP-COMPLETION-UNKNOWN
  it("still refuses to complete a prompt it does not serve, -32602 (departure 5: the conformance suite's completion-complete)", async () => {
    const server = new McpServer({ name: "stock", version: "0" });
    server.registerPrompt("p", { argsSchema: { a: completable(z.string(), () => ["x"]) } }, () => ({ messages: [] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "t" } }),
    ).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
