// speky-mcp --http's guards as a client meets them: Host and Origin (DNS rebinding), the token
// beyond loopback, the bounds (body size, sessions), each refusal a status and a JSON-RPC error.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { HTTP_OPTIONS, httpInvocation } from "../../src/commands/mcp-http.js";
import { allowedHostNames, isLoopback, parseListen } from "../../src/mcp/http/address.js";
import { hostRefusal, tokenRefusal } from "../../src/mcp/http/guard.js";
import { readToken } from "../../src/mcp/http/token.js";
import { MCP_FIXTURE, MCP_MAIN } from "../support/mcp.js";
import { connectHttp, type HttpServerProcess, INITIALIZE, POST_HEADERS, rawRequest, startHttp } from "../support/mcp-http.js";
import { REPO, tempDir } from "../support/process.js";

const TOKEN = "0123456789abcdef0123456789abcdef";
const errorOf = (body: string) => (JSON.parse(body) as { error: { code: number; message: string } }).error;

describe("addresses, hosts and tokens (in-process)", () => {
  // speky:speky-ts#TMCP-HTTP-LISTEN
  it("reads [HOST:]PORT, loopback by default, and refuses anything else", () => {
    expect(parseListen("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseListen("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 });
    expect(parseListen("[::1]:9")).toEqual({ host: "::1", port: 9 });
    for (const bad of ["", "x", "1:2:3", "70000", "host:", ":80", "[::1]"]) expect(() => parseListen(bad)).toThrow(/\[HOST:\]PORT/);
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost", "LOCALHOST"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.1", "example.com", "127.0.0.1.example.com"].some(isLoopback)).toBe(false);
    const read = (...argv: string[]) => httpInvocation(parseArgs(argv, HTTP_OPTIONS));
    expect(read("--http", "9", "--max-sessions", "3")).toEqual({
      listen: { host: "127.0.0.1", port: 9 },
      allowHosts: [],
      bounds: { maxSessions: 3 },
    });
    expect(read()).toBeUndefined();
    expect(() => read("--token-file", "t")).toThrow("--token-file goes with --http");
    for (const bad of ["0", "-1", "1.5", "x", "100001"])
      expect(() => read("--http", "9", "--max-requests", bad)).toThrow(/whole number from 1 to 100000/);
  });

  // speky:speky-ts#TMCP-HTTP-REBINDING
  it("accepts this server's names on its port, refuses other names, ports and origins", () => {
    const rule = { names: allowedHostNames("127.0.0.1", []), anyPort: new Set<string>(), port: 4000 };
    for (const host of ["127.0.0.1:4000", "localhost:4000", "[::1]:4000", "LocalHost:4000"]) expect(hostRefusal({ host }, rule)).toBeNull();
    for (const host of ["evil.example.com:4000", "127.0.0.1:4001", "127.0.0.1", "localhost.evil:4000", "", "a b:4000"]) {
      expect(hostRefusal({ host }, rule)?.status).toBe(403);
    }
    expect(hostRefusal({}, rule)?.status).toBe(403);
    const ok = { host: "localhost:4000" };
    expect(hostRefusal({ ...ok, origin: "http://localhost:4000" }, rule)).toBeNull();
    for (const origin of ["http://evil.example.com", "http://localhost:3000", "null", "file://", "ftp://localhost:4000"]) {
      expect(hostRefusal({ ...ok, origin }, rule)?.message).toMatch(/Origin/);
    }
    const proxied = { ...rule, anyPort: new Set(["mcp.example.org"]) };
    expect(hostRefusal({ host: "mcp.example.org" }, proxied)).toBeNull();
    expect(hostRefusal({ host: "mcp.example.org", origin: "https://mcp.example.org" }, proxied)).toBeNull();
  });

  // speky:speky-ts#TMCP-HTTP-TOKEN
  it("reads the token from its file or the environment, refuses a short one, and checks the header", () => {
    const dir = tempDir();
    const file = path.join(dir, "token");
    writeFileSync(file, `${TOKEN}\n`);
    expect(readToken(file, {})).toBe(TOKEN);
    expect(readToken(undefined, { SPEKY_MCP_TOKEN: ` ${TOKEN} ` })).toBe(TOKEN);
    expect(readToken(undefined, {})).toBeNull();
    writeFileSync(file, "short\n");
    expect(() => readToken(file, {})).toThrow(/at least 16 characters/);
    expect(() => readToken(path.join(dir, "none"), {})).toThrow(/file not found/);
    expect(tokenRefusal({ authorization: `Bearer ${TOKEN}` }, TOKEN)).toBeNull();
    for (const authorization of [undefined, "", `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      expect(tokenRefusal(authorization === undefined ? {} : { authorization }, TOKEN)?.status).toBe(401);
    }
  });
});

describe("a loopback server", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttp(["--http", "127.0.0.1:0", "--no-watch", MCP_FIXTURE]);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  // speky:speky-ts#TMCP-HTTP-REBINDING
  it("refuses a request naming another host or coming from another origin, with 403 and a JSON-RPC error", async () => {
    const host = server.url.host;
    const evil = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: "evil.example.com" }, INITIALIZE);
    expect(evil.status).toBe(403);
    expect(errorOf(evil.body).message).toMatch(/Host header/);
    const page = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host, Origin: "http://evil.example.com" }, INITIALIZE);
    expect(page.status).toBe(403);
    expect(errorOf(page.body).message).toMatch(/Origin header/);
    const fine = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host, Origin: `http://${host}` }, INITIALIZE);
    expect(fine.status).toBe(200);
    expect(fine.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  // speky:speky-ts#TMCP-HTTP-BOUNDS
  it("answers a body over the bound 413, a wrong path 404, an unknown session 404, no session 400, all as JSON-RPC errors", async () => {
    const host = server.url.host;
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const tooLarge = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host }, big);
    expect(tooLarge.status).toBe(413);
    expect(errorOf(tooLarge.body).message).toMatch(/at most 1048576 bytes/);
    const wrongPath = await rawRequest(new URL("/other", server.url), "POST", { ...POST_HEADERS, Host: host }, INITIALIZE);
    expect([wrongPath.status, errorOf(wrongPath.body).message]).toEqual([404, "Not found: the MCP endpoint is /mcp"]);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host, "Mcp-Session-Id": "nope" }, list);
    expect([unknown.status, errorOf(unknown.body).code]).toEqual([404, -32001]);
    const none = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host }, list);
    expect(none.status).toBe(400);
    const notJson = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: host }, "{");
    expect([notJson.status, errorOf(notJson.body).code]).toEqual([400, -32700]);
    const put = await rawRequest(server.url, "PUT", { Host: host }, "");
    expect([put.status, put.headers.allow]).toEqual([405, "GET, POST, DELETE"]);
  });

  // speky:speky-ts#TMCP-HTTP-SAME
  it("takes speky's initialize without clientInfo, as stdio does", async () => {
    const bare = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const answer = await rawRequest(server.url, "POST", { ...POST_HEADERS, Host: server.url.host }, bare);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/"serverInfo":\{"name":"speky-mcp"/);
  });
});

describe("beyond loopback", () => {
  // speky:speky-ts#TMCP-HTTP-TOKEN
  it("refuses to start without a token: one line, exit 2", async () => {
    const run = spawnSync(process.execPath, [MCP_MAIN, "--http", "0.0.0.0:0", MCP_FIXTURE], {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, SPEKY_MCP_TOKEN: "" },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "speky-mcp: --http 0.0.0.0: listening beyond loopback needs a bearer token (--token-file FILE, or the environment " +
        "variable SPEKY_MCP_TOKEN)\nTry 'speky-mcp --help'.\n",
    );
  });

  // speky:speky-ts#TMCP-HTTP-TOKEN
  it("with a token, serves only the requests that carry it", async () => {
    const server = await startHttp(["--http", "0.0.0.0:0", "--no-watch", MCP_FIXTURE], { env: { SPEKY_MCP_TOKEN: TOKEN } });
    try {
      expect(server.url.hostname).toBe("127.0.0.1");
      expect(server.stderr()).toMatch(/\(bearer token required\)/);
      await expect(connectHttp(server.url)).rejects.toThrow(/401|Unauthorized/);
      await expect(connectHttp(server.url, { Authorization: `Bearer ${TOKEN}x` })).rejects.toThrow(/401|Unauthorized/);
      const client = await connectHttp(server.url, { Authorization: `Bearer ${TOKEN}` });
      const ids = await client.client.callTool({ name: "list_all_ids", arguments: {} });
      expect((ids.structuredContent as { requirements: string[] }).requirements).toContain("REQ-ALL");
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("the bounds on sessions and requests at once", () => {
  // speky:speky-ts#TMCP-HTTP-BOUNDS
  it("answers a session beyond --max-sessions 503 and a request beyond --max-requests 429, then serves again", async () => {
    const gate = path.join(tempDir(), "scan-may-go");
    const server = await startHttp(["--http", "127.0.0.1:0", "--no-watch", "--max-sessions", "2", "--max-requests", "1", MCP_FIXTURE], {
      env: { SPEKY_MCP_HOLD_SCAN: gate, SPEKY_MCP_SCAN_WAIT_MS: "120000" },
    });
    try {
      const headers = { ...POST_HEADERS, Host: server.url.host };
      const open = async () => rawRequest(server.url, "POST", headers, INITIALIZE);
      const [a, b] = [await open(), await open()];
      expect([a.status, b.status]).toEqual([200, 200]);
      const third = await open();
      expect([third.status, third.headers["retry-after"], errorOf(third.body).message]).toEqual([
        503,
        "5",
        "Too many sessions: at most 2 open at once; close one or retry later",
      ]);
      const session = (answer: { headers: Record<string, unknown> }) => ({
        ...headers,
        "Mcp-Session-Id": String(answer.headers["mcp-session-id"]),
        "Mcp-Protocol-Version": "2025-11-25",
      });
      expect((await rawRequest(server.url, "DELETE", session(a))).status).toBe(200);
      const c = await open();
      expect(c.status).toBe(200);

      // A call that waits for the held scan stays in flight: its stream is open once its headers came.
      const call = JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_requirement", arguments: { id: "REQ-ALL" } },
      });
      const pending = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(
          { host: server.url.hostname, port: server.url.port, path: server.url.pathname, method: "POST", headers: session(b) },
          resolve,
        );
        req.on("error", reject);
        req.end(call);
      });
      expect(pending.statusCode).toBe(200);
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" });
      const busy = await rawRequest(server.url, "POST", session(c), ping);
      expect([busy.status, busy.headers["retry-after"], errorOf(busy.body).message]).toEqual([
        429,
        "1",
        "Too many requests: at most 1 at once; retry shortly",
      ]);
      writeFileSync(gate, "");
      const body = await new Promise<string>((resolve) => {
        let text = "";
        pending.on("data", (chunk: Buffer) => (text += chunk.toString()));
        pending.on("end", () => resolve(text));
      });
      expect(body).toMatch(/"id":"REQ-ALL"/);
      expect((await rawRequest(server.url, "POST", session(c), ping)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

// speky:speky-ts#TMCP-HTTP-SAME
it("sends a waiting call's progress over HTTP, as on stdio, then the whole answer", async () => {
  const gate = path.join(tempDir(), "scan-may-go");
  const server = await startHttp(["--http", "127.0.0.1:0", "--no-watch", MCP_FIXTURE], {
    env: { SPEKY_MCP_HOLD_SCAN: gate, SPEKY_MCP_SCAN_WAIT_MS: "120000" },
  });
  try {
    const remote = await connectHttp(server.url);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    let sawFirst!: () => void;
    const first = new Promise<void>((resolve) => (sawFirst = resolve));
    const pending = remote.client.callTool({ name: "get_requirement", arguments: { id: "REQ-ALL" } }, undefined, {
      onprogress: (p) => {
        progress.push(p);
        sawFirst();
      },
    });
    await first;
    expect(progress[0].message).toMatch(/^scan in progress: 0 of (\d+|\?) files$/);
    writeFileSync(gate, "");
    const answer = await pending;
    expect(answer._meta).toBeUndefined();
    expect((answer.structuredContent as { code_references?: unknown[] }).code_references?.length).toBeGreaterThan(0);
    await remote.close();
  } finally {
    expect(await server.stop()).toBe(0);
  }
});
