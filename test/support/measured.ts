// Our real binaries as children whose peak memory is measured (peak-rss.cjs) and whose hang
// fails the test (a guard kills the child): for the hostile-input suites.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO, SPEKY_BIN, tempDir } from "./process.js";

export const PEAK_RSS_PRELOAD = path.join(REPO, "test/support/peak-rss.cjs");
export const MCP_BIN = path.join(REPO, "dist/commands/mcp.js");
/** Memory every hostile input must stay under (issue 12). */
export const MAX_RSS_MB = 500;
/** Generous: only a hang (or a minutes-long run) trips it. */
export const HANG_GUARD_MS = 90_000;

export interface MeasuredRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak RSS of the child in MB; NaN when it did not exit normally. */
  peakMB: number;
}

function rssFile(): string {
  return path.join(tempDir("speky-rss-"), "rss");
}

function readPeak(file: string): number {
  return existsSync(file) ? Number(readFileSync(file, "utf8")) / 1024 : NaN;
}

/** `speky ARGS` in cwd, killed after HANG_GUARD_MS. */
export function runSpekyMeasured(args: string[], cwd: string): MeasuredRun {
  const file = rssFile();
  const r = spawnSync(process.execPath, ["--require", PEAK_RSS_PRELOAD, SPEKY_BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, SPEKY_TEST_RSS_FILE: file, SPEKY_CACHE_DIR: tempDir("speky-cache-") },
    maxBuffer: 256 * 1024 * 1024,
    timeout: HANG_GUARD_MS,
    killSignal: "SIGKILL",
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, peakMB: readPeak(file) };
}

/** A speky-mcp child with a measured peak; `exit()` resolves to its code and peak. */
export class MeasuredServer {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  private readonly file = rssFile();
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, ["--require", PEAK_RSS_PRELOAD, MCP_BIN, ...args], {
      cwd,
      env: { ...process.env, SPEKY_TEST_RSS_FILE: this.file },
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
  }

  /** Waits for the exit, killing the child after `guardMs` (a hang then fails the caller). */
  async exit(guardMs = HANG_GUARD_MS): Promise<{ code: number | null; signal: NodeJS.Signals | null; peakMB: number }> {
    const guard = setTimeout(() => this.child.kill("SIGKILL"), guardMs);
    const { code, signal } = await this.exited;
    clearTimeout(guard);
    return { code, signal, peakMB: readPeak(this.file) };
  }
}

/** Waits (bounded) for a child that was told to exit to have written its peak. */
export async function peakAfterExit(file: string, guardMs = 10_000): Promise<number> {
  for (const started = Date.now(); Date.now() - started < guardMs; ) {
    if (existsSync(file) && readFileSync(file, "utf8") !== "") return readPeak(file);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return NaN;
}

export interface MeasuredSession {
  client: import("@modelcontextprotocol/sdk/client/index.js").Client;
  stderr(): string;
  /** Closes the client and returns the server's peak RSS in MB. */
  close(): Promise<number>;
}

/** The SDK's Client over stdio to a measured speky-mcp in cwd. */
export async function connectMeasured(args: string[], cwd: string): Promise<MeasuredSession> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const file = rssFile();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--require", PEAK_RSS_PRELOAD, MCP_BIN, ...args],
    cwd,
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", SPEKY_TEST_RSS_FILE: file, SPEKY_CACHE_DIR: tempDir("speky-cache-") },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "speky-ts-hostile", version: "0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nspeky-mcp stderr:\n${stderr}`);
  }
  return {
    client,
    stderr: () => stderr,
    close: async () => {
      await client.close();
      return peakAfterExit(file);
    },
  };
}
