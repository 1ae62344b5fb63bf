// Latency of the built speky-mcp on a large generated project: time from spawn to the
// `initialize` answer and to the first answer holding code references (best of 3 spawns, each
// with an empty scan cache), then p50/p99 round trips per tool, measured on raw JSON-RPC
// lines so that no client-side validation is counted.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateLargeSpec } from "../generate.js";
import { requirementId, testId, writeTaggedSources } from "../tagged-sources.js";

const SIZE = { requirements: 10_000, tests: 20_000, codeReferences: 50_000 };
const CALLS = 300;
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/commands/mcp.js");

interface Answer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** One JSON-RPC line out, the answer with the same id back. */
export class RawClient {
  // Answers can be megabytes long: keep the chunks and look for the newline in each new one only.
  private chunks: Buffer[] = [];
  private pending = new Map<number, (answer: Answer) => void>();
  private nextId = 1;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        this.chunks.push(chunk.subarray(start, nl));
        const answer = JSON.parse(Buffer.concat(this.chunks).toString("utf8")) as Answer;
        this.chunks = [];
        if (typeof answer.id === "number") this.pending.get(answer.id)?.(answer);
        start = nl + 1;
      }
      if (start < chunk.length) this.chunks.push(chunk.subarray(start));
    });
  }

  request(method: string, params: object): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (answer) => {
        this.pending.delete(id);
        resolve(answer);
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }
}

interface Case {
  label: string;
  tool: string;
  args: (i: number) => Record<string, unknown>;
}

// Tags and categories as generateLargeSpec writes them.
const TAGS = ["area:io", "area:ui", "area:core", "area:net", "priority-0", "priority-1", "priority-2"];

function cases(): Case[] {
  const req = (i: number) => requirementId((i * 7919) % SIZE.requirements);
  const test = (i: number) => testId((i * 104729) % SIZE.tests);
  const tag = (i: number) => TAGS[i % TAGS.length];
  return [
    { label: "get_requirement", tool: "get_requirement", args: (i) => ({ id: req(i) }) },
    { label: "get_test", tool: "get_test", args: (i) => ({ id: test(i) }) },
    { label: "search_requirements tag+category", tool: "search_requirements", args: (i) => ({ tag: tag(i), category: "functional" }) },
    { label: "search_requirements tag", tool: "search_requirements", args: (i) => ({ tag: tag(i) }) },
    { label: "search_requirements (all 10k)", tool: "search_requirements", args: () => ({}) },
    { label: "search_tests tester_of", tool: "search_tests", args: (i) => ({ tester_of: req(i) }) },
    { label: "search_tests category (all 20k)", tool: "search_tests", args: () => ({ category: "functional" }) },
    { label: "list_references_to", tool: "list_references_to", args: (i) => ({ id: req(i) }) },
    { label: "test_plan_coverage category", tool: "test_plan_coverage", args: () => ({ category: "non-functional" }) },
    { label: "test_plan_coverage (manifest)", tool: "test_plan_coverage", args: () => ({}) },
    { label: "least_tested_requirements count", tool: "least_tested_requirements", args: (i) => ({ tag: tag(i), count: 10 }) },
    { label: "least_tested_requirements (all)", tool: "least_tested_requirements", args: () => ({}) },
    { label: "list_all_tags", tool: "list_all_tags", args: () => ({}) },
    { label: "list_all_ids", tool: "list_all_ids", args: () => ({}) },
    { label: "get_requirement unknown ID", tool: "get_requirement", args: (i) => ({ id: `NOPE-${i}` }) },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => n.toFixed(2).padStart(8);

export async function benchMcp(): Promise<string[]> {
  if (!existsSync(MAIN)) return [`mcp latency: ${MAIN} is missing, build first`];
  const dir = mkdtempSync(path.join(tmpdir(), "speky-mcp-bench-"));
  try {
    const manifest = await generateLargeSpec(dir, SIZE);
    await writeTaggedSources(dir, SIZE);
    return await measure(dir, manifest);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Start-up figures are the best of this many spawns, each with an empty scan cache. */
const STARTS = 3;

async function measure(dir: string, manifest: string): Promise<string[]> {
  const inits: number[] = [];
  const firsts: number[] = [];
  for (let run = 1; run <= STARTS; run++) {
    const out = await measureOnce(dir, manifest, run === STARTS);
    if (typeof out === "string") return [out];
    inits.push(out.startup);
    firsts.push(out.firstReference);
    if (run < STARTS) continue;
    const all = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    out.lines[1] = `  spawn to initialize answer (specs loaded, scan in the background): ${Math.min(...inits).toFixed(0)} ms (best of ${STARTS}: ${all(inits)})`;
    out.lines[2] = `${out.lines[2].replace(/: \d+ ms/, `: ${Math.min(...firsts).toFixed(0)} ms`)} (best of ${STARTS}: ${all(firsts)})`;
    return out.lines;
  }
  return [];
}

/** One spawn, with a scan cache of its own (empty: the first code reference waits for a cold scan). */
async function measureOnce(
  dir: string,
  manifest: string,
  latencies: boolean,
): Promise<string | { startup: number; firstReference: number; lines: string[] }> {
  const cacheDir = mkdtempSync(path.join(tmpdir(), "speky-mcp-bench-cache-"));
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, "--quiet", manifest], { cwd: dir, env: { ...process.env, SPEKY_CACHE_DIR: cacheDir } });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const client = new RawClient(child);
  try {
    const init = await Promise.race([
      client.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "speky-bench", version: "0" },
      }),
      exited.then((code) => ({ error: { code: -1, message: `server exited ${code}: ${stderr.trim()}` } })),
    ]);
    if (init.error) return `mcp latency: ${init.error.message}`;
    const startup = performance.now() - started;
    client.notify("notifications/initialized");
    // The first answer holding code references: get_requirement waits for the background scan.
    const first = await client.request("tools/call", { name: "get_requirement", arguments: { id: requirementId(0) } });
    const firstReference = performance.now() - started;
    const result = first.result as { structuredContent?: { code_references?: unknown[] }; _meta?: Record<string, string> } | undefined;
    const references = result?.structuredContent?.code_references?.length ?? 0;
    const partial = result?._meta?.["speky-ts/partial"];

    const lines = [
      `speky-mcp on ${SIZE.requirements.toLocaleString("en-US")} requirements, ` +
        `${SIZE.tests.toLocaleString("en-US")} tests, ${SIZE.codeReferences.toLocaleString("en-US")} code tags`,
      `  spawn to initialize answer (specs loaded, scan in the background): ${startup.toFixed(0)} ms`,
      `  spawn to first code reference (get_requirement waits for the scan): ${firstReference.toFixed(0)} ms ` +
        `(${references} code references${partial ? `; PARTIAL: ${partial}` : ""})`,
      `  ${"tool call".padEnd(36)} calls   p50 ms   p99 ms    answer`,
    ];
    if (!latencies) return { startup, firstReference, lines };
    for (const c of cases()) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < CALLS + 10; i++) {
        const t0 = performance.now();
        const answer = await client.request("tools/call", { name: c.tool, arguments: c.args(i) });
        const elapsed = performance.now() - t0;
        if (answer.error) return `mcp latency: ${c.label}: ${answer.error.message}`;
        if (i >= 10) times.push(elapsed); // the first calls warm the JIT
        if (i === 10) bytes = JSON.stringify(answer).length;
      }
      times.sort((a, b) => a - b);
      const size = bytes >= 10_000 ? `${Math.round(bytes / 1000)} kB` : `${bytes} B`;
      lines.push(
        `  ${c.label.padEnd(36)} ${String(CALLS).padStart(5)} ${ms(percentile(times, 50))} ${ms(percentile(times, 99))} ${size.padStart(9)}`,
      );
    }
    return { startup, firstReference, lines };
  } finally {
    child.stdin.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    child.kill();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

// Runnable on its own: node dist-bench/servers/mcp-latency.js
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchMcp()) console.log(line);
}
