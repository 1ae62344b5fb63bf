// speky-mcp --http as a process, and the SDK's Streamable HTTP client talking to it; raw
// requests (node:http, which lets a test set Host) for the refusals a client never provokes.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCP_MAIN } from "./mcp.js";
import { REPO } from "./process.js";

export interface HttpServerProcess {
  child: ChildProcess;
  /** The endpoint's URL, as the server printed it. */
  url: URL;
  stderr(): string;
  /** Waits until stderr matches `pattern` (the server's own log lines), or the process leaves. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string>;
  cwd?: string;
}

/** Spawns `speky-mcp --http ...args` and resolves once it printed where it listens; rejects with its stderr if it leaves first. */
export function startHttp(args: string[], options: StartOptions = {}): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [MCP_MAIN, ...args], {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const waiters = new Set<() => void>();
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      exited = true;
      for (const wake of waiters) wake();
      resolve(code);
    }),
  );
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of waiters) wake();
  });
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    for (;;) {
      const match = stderr.match(pattern);
      if (match) return match;
      if (exited) throw new Error(`speky-mcp left before printing ${pattern}; stderr:\n${stderr}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    }
  };
  return waitFor(/listening on (http:\/\/\S+)/).then((match) => ({
    child,
    url: new URL(match[1]),
    stderr: () => stderr,
    waitFor,
    stop: () => {
      if (!exited) child.kill("SIGTERM");
      return exit;
    },
  }));
}

export interface HttpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** DELETE the session, then close the client. */
  close(): Promise<void>;
}

export async function connectHttp(url: URL, headers: Record<string, string> = {}): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: "speky-ts-tests", version: "0" });
  await client.connect(transport);
  return {
    client,
    transport,
    close: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with exactly these headers (Host included), its whole answer. */
export function rawRequest(url: URL, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The headers of a POST a Streamable HTTP client sends. */
export const POST_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});
