// The MCP lifecycle as speky's own clients and test plan drive it, over raw JSON-RPC lines and
// through the SDK's Client: a lenient `initialize`, nothing but `ping` before it, an unknown
// tool as a protocol error, and no validator's dump in any message.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connect, RawServer } from "../support/mcp.js";

type Line = Record<string, any>;

const initialize = (id: number, params: object) => ({ jsonrpc: "2.0", id, method: "initialize", params });
const toolCall = (id: number, name: unknown, args: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** Sends each message as one line and waits for one answer per request (notifications get none). */
async function exchange(server: RawServer, messages: object[]): Promise<Map<unknown, Line>> {
  const before = server.lines().length;
  for (const m of messages) server.send(JSON.stringify(m));
  const expected = messages.filter((m) => "id" in m).length;
  const lines = (await server.waitForLines(before + expected)) as Line[];
  return new Map(lines.map((l) => [l.id, l]));
}

/** A message a person can read: no JSON dump of validator issues, no newline, bounded. */
function expectReadable(message: string): void {
  expect(message).not.toMatch(/[[{]\s*"|\n|invalid_type|"path"/);
  expect(message.length).toBeLessThan(300);
}

describe("initialize", () => {
  // speky:speky-ts#TMCP-LENIENT-INITIALIZE
  it("accepts speky's TMCP003 request, without clientInfo, as the first line", async () => {
    const server = new RawServer();
    const answers = await exchange(server, [
      initialize(1, { protocolVersion: "2025-11-25", capabilities: {} }),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      toolCall(2, "list_all_tags"),
    ]);
    expect(answers.get(1)!.result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "speky-mcp" } });
    expect(answers.get(2)!.result.structuredContent).toEqual({ tags: ["auth", "output:pdf", "perf"] });
    expect(await server.endInput()).toBe(0);
  });

  // speky:speky-ts#TMCP-LENIENT-INITIALIZE
  it("accepts clientInfo {} and a missing capabilities once the SDK is loaded (after a ping)", async () => {
    const server = new RawServer();
    const answers = await exchange(server, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      initialize(2, { protocolVersion: "2025-06-18", clientInfo: {} }),
      toolCall(3, "list_all_ids"),
    ]);
    expect(answers.get(1)!.result).toEqual({});
    expect(answers.get(2)!.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "speky-mcp" } });
    expect(answers.get(3)!.result.structuredContent.requirements).toHaveLength(7);
    await server.endInput();
  });

  // speky:speky-ts#TMCP-LENIENT-INITIALIZE
  it("answers capabilities of the wrong shape with -32602 in words, never a validator's dump", async () => {
    const server = new RawServer();
    const answers = await exchange(server, [
      initialize(1, { protocolVersion: "2025-11-25", capabilities: { roots: 5 }, clientInfo: { name: "c", version: "1" } }),
      initialize(2, { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
      toolCall(3, { not: "a name" }),
    ]);
    const refused = answers.get(1)!.error;
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain("capabilities.roots");
    expectReadable(refused.message);
    expect(answers.get(2)!.result.serverInfo.name).toBe("speky-mcp");
    const noName = answers.get(3)!.error;
    expect(noName.code).toBe(-32602);
    expectReadable(noName.message);
    await server.endInput();
  });
});

describe("before initialize", () => {
  // speky:speky-ts#TMCP-BEFORE-INITIALIZE
  it("refuses every request but ping with -32002, then serves once initialized", async () => {
    const server = new RawServer();
    const before = await exchange(server, [
      toolCall(1, "get_requirement", { id: "REQ-BASE" }),
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ]);
    expect(before.get(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32002, message: "Server not initialized" } });
    expect(before.get(2)!.error.code).toBe(-32002);
    expect(before.get(3)!.result).toEqual({});
    const after = await exchange(server, [
      initialize(4, { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
      toolCall(5, "get_requirement", { id: "REQ-BASE" }),
    ]);
    // Sent before the answer to initialize, and answered: the call waited for it.
    expect(after.get(5)!.result.structuredContent.id).toBe("REQ-BASE");
    await server.endInput();
  });

  // speky:speky-ts#TMCP-BEFORE-INITIALIZE
  it("refuses the requests sent after an initialize that failed", async () => {
    const server = new RawServer();
    const answers = await exchange(server, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      initialize(2, { protocolVersion: "2025-11-25", capabilities: { sampling: "yes" } }),
      toolCall(3, "list_all_tags"),
    ]);
    expect(answers.get(2)!.error.code).toBe(-32602);
    expect(answers.get(3)!.error).toEqual({ code: -32002, message: "Server not initialized" });
    await server.endInput();
  });
});

describe("unknown tool", () => {
  // speky:speky-ts#TMCP-UNKNOWN-TOOL
  it("is a JSON-RPC error -32602 naming the tool, on the wire and for the SDK's client", async () => {
    const server = new RawServer();
    await server.initialize();
    const answers = await exchange(server, [toolCall(1, "no_such_tool")]);
    expect(answers.get(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool: 'no_such_tool'" } });
    await server.endInput();

    const session = await connect();
    try {
      const refused = await session.client.callTool({ name: "get_requirment", arguments: { id: "REQ-BASE" } }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(-32602);
      expect((refused as McpError).message).toContain("Unknown tool: 'get_requirment'");
    } finally {
      await session.close();
    }
  });
});
