// Talk to the built speky-mcp as a real client would: the SDK's Client over stdio, or raw
// lines on the process's stdin when the test is about the wire itself.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect } from "vitest";
import { REPO } from "./process.js";

export const MCP_MAIN = path.join(REPO, "dist/commands/mcp.js");
export const MCP_FIXTURE = "fixtures/mcp/speky.yaml";
/** What every tool must declare, written out here rather than imported from the server. */
/** Every tool the server must list, in its order, written out here once for all suites. */
export const TOOL_NAMES = [
  "get_requirement",
  "get_test",
  "search_requirements",
  "search_tests",
  "list_references_to",
  "test_plan_coverage",
  "least_tested_requirements",
  "list_all_tags",
  "list_all_ids",
  "search_text",
  "find_code_references",
  "list_problems",
  "get_status",
  "changes_since",
];
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export interface Session {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Working directory of the server; default the repository. */
  cwd?: string;
  /** Extra environment variables (merged over the SDK's safe default set). */
  env?: Record<string, string>;
}

export async function connect(args: string[] = [MCP_FIXTURE], options: ConnectOptions = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_MAIN, ...args],
    cwd: options.cwd ?? REPO,
    stderr: "pipe",
    // The SDK passes a safe default set of variables only: the suites' cache folder is added.
    env: { SPEKY_CACHE_DIR: process.env.SPEKY_CACHE_DIR ?? "", ...options.env },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "speky-ts-tests", version: "0" });
  try {
    await client.connect(transport);
    // Listing the tools arms the client's check of every structuredContent against its outputSchema.
    await client.listTools();
  } catch (error) {
    // A server that died at start-up says why on stderr.
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nspeky-mcp stderr:\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface ToolAnswer {
  isError: boolean;
  structured: unknown;
}

/** Calls a tool and checks the envelope every answer shares: one text block with the same JSON, compact. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0].type).toBe("text");
  expect(content[0].text).toBe(JSON.stringify(result.structuredContent));
  return { isError: result.isError === true, structured: result.structuredContent };
}

export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const answer = await call(client, name, args);
  expect(answer.isError).toBe(false);
  return answer.structured;
}

export async function domainError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await call(client, name, args);
  expect(answer.isError).toBe(true);
  return (answer.structured as { error: string }).error;
}

/** The server as a bare process, for tests about the lines on stdin and stdout. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(args: string[] = [MCP_FIXTURE]) {
    this.child = spawn(process.execPath, [MCP_MAIN, ...args], { cwd: REPO });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString();
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  request(id: number, method: string, params: object = {}): void {
    this.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  }

  lines(): unknown[] {
    return this.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
  }

  /** Waits until stdout holds `count` complete lines. */
  async waitForLines(count: number): Promise<unknown[]> {
    while (this.stdout.split("\n").length - 1 < count) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.lines();
  }

  async initialize(): Promise<void> {
    this.request(0, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    await this.waitForLines(1);
    this.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  }

  endInput(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}
