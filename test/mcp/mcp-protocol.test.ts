// The wire and the process: parse errors answered and survived, protocol only on stdout,
// exit codes for load and usage errors, a clean exit when stdin closes.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MCP_FIXTURE, MCP_MAIN, RawServer } from "../support/mcp.js";
import { REPO } from "../support/process.js";

const runMain = (args: string[]) => spawnSync(process.execPath, [MCP_MAIN, ...args], { cwd: REPO, encoding: "utf8", input: "" });

const callTool = (name: string, args: object) => ({ name, arguments: args });

describe("protocol faults", () => {
  // speky:speky-ts#TMCP-PROTOCOL
  it("answers a non-JSON line with -32700 and id null, then serves the next request", async () => {
    const server = new RawServer();
    await server.initialize();
    server.send("this is not json");
    server.request(1, "tools/call", callTool("get_requirement", { id: "REQ-BASE" }));
    const [, parseError, answer] = (await server.waitForLines(3)) as Record<string, any>[];
    expect(parseError).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(Object.keys(parseError).sort()).toEqual(["error", "id", "jsonrpc"]);
    expect(answer.id).toBe(1);
    expect(answer.result.structuredContent.id).toBe("REQ-BASE");
    expect(await server.endInput()).toBe(0);
  });

  // speky:speky-ts#TMCP-PROTOCOL
  it("answers JSON that is not a JSON-RPC message with -32600, keeping its id when it has one", async () => {
    const server = new RawServer();
    await server.initialize();
    server.send('{"hello": "world"}');
    server.send('{"id": 7, "method": 3}');
    server.send("");
    server.request(2, "tools/call", callTool("list_all_tags", {}));
    const lines = (await server.waitForLines(4)) as Record<string, any>[];
    expect(lines[1]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } });
    expect(lines[2]).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.any(String) } });
    expect(lines[3]).toMatchObject({ id: 2, result: { structuredContent: { tags: ["auth", "output:pdf", "perf"] } } });
    await server.endInput();
  });

  // speky:speky-ts#TMCP-PROTOCOL
  it("answers an unknown tool and an unknown method, and keeps serving", async () => {
    const server = new RawServer();
    await server.initialize();
    server.request(3, "tools/call", callTool("no_such_tool", {}));
    server.request(4, "no/such/method");
    server.request(5, "tools/call", callTool("list_all_ids", {}));
    const lines = (await server.waitForLines(4)) as Record<string, any>[];
    // Answers may come in any order: requests are handled concurrently.
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(byId.get(3)).toMatchObject({ error: { code: -32602, message: "Unknown tool: 'no_such_tool'" } });
    expect(byId.get(4)).toMatchObject({ error: { code: -32601 } });
    expect(byId.get(5)!.result.structuredContent.requirements).toHaveLength(7);
    await server.endInput();
  });

  it("writes nothing but JSON-RPC on stdout, even when verbose, and exits 0 when stdin closes", async () => {
    const server = new RawServer([MCP_FIXTURE, "--verbose"]);
    await server.initialize();
    server.request(1, "tools/list");
    server.request(2, "resources/read", { uri: "speky://requirement/NOPE" });
    await server.waitForLines(3);
    expect(await server.endInput()).toBe(0);
    for (const line of server.stdout.trimEnd().split("\n")) expect(JSON.parse(line).jsonrpc).toBe("2.0");
    expect(server.lines().find((l: any) => l.id === 2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32002, message: "Requirement NOPE not found", data: { uri: "speky://requirement/NOPE" } },
    });
    expect(server.stderr).toMatch(/loaded 7 requirements, 4 tests and \d+ code references/);
  });
});

describe("start-up", () => {
  it("exits 1 with the load error on stderr and nothing on stdout", () => {
    const run = runMain(["fixtures/mcp/broken.yaml"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("fixtures/mcp/broken.yaml");
    expect(run.stderr).toContain("DOES-NOT-EXIST");
  });

  it("exits 1 when a path does not exist", () => {
    const run = runMain(["fixtures/mcp/no-such-file.yaml"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no-such-file.yaml");
  });

  it("exits 2 on usage errors", () => {
    for (const args of [[], ["--bogus", MCP_FIXTURE], [MCP_FIXTURE, "-C"], [MCP_FIXTURE, "--quiet", "--verbose"]]) {
      const run = runMain(args);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^speky-mcp: .+\nTry 'speky-mcp --help'\.\n$/);
    }
  });

  it("prints help and version", () => {
    const help = runMain(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("speky-mcp [PATH...] [-C CSV]...");
    const version = runMain(["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^speky-mcp \d+\.\d+\.\d+\n$/);
  });

  it("stays silent on stderr with --quiet", async () => {
    const server = new RawServer([MCP_FIXTURE, "--quiet"]);
    await server.initialize();
    expect(await server.endInput()).toBe(0);
    expect(server.stderr).toBe("");
  });
});
