// What the departures from the stock MCP SDK (src/mcp/sdk/pin.ts) still gain, measured so that
// a loaded machine (other jobs on the same cores) shows in the figures rather than in the
// conclusion: paired runs, alternating which goes first, medians of ratios and win counts.
//   npm run build && node dist-bench/servers/mcp-sdk-departures.js [initialize|outputs] [PAIRS]
// initialize: spawn to the `initialize` answer, early (a plain request, answered before the
//   SDK is loaded) against the SDK's (the same request with `_meta`, which the early path
//   leaves to the SDK), on the MCP fixture and on 10,000 requirements + 20,000 tests; also the
//   server's CPU time at the answer (Linux: /proc), steadier than wall time under load.
// outputs: the zod check McpServer would make of every result if it were given the
//   outputSchema (on every call, memoized answers included), against what a call costs
//   without it: the first (computed) and a repeated (memoized) call, and writing the answer.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { loadSpecs } from "../../dist/loader/load.js";
import { fixedState, outputShape, runTool } from "../../dist/mcp/tool.js";
import { TOOLS } from "../../dist/mcp/tools/index.js";
import { buildModel } from "../../dist/model/model.js";
import { generateLargeSpec } from "../generate.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MAIN = path.join(REPO, "dist/commands/mcp.js");
const LARGE = { requirements: 10_000, tests: 20_000, codeReferences: 0 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** CPU milliseconds (user + system) of a live process, from /proc; null elsewhere. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** One spawn: wall and CPU milliseconds to the first answer line. */
function initializeOnce(cwd: string, manifest: string, early: boolean): Promise<{ wall: number; cpu: number | null }> {
  const cache = mkdtempSync(path.join(tmpdir(), "speky-departures-cache-"));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [MAIN, "--quiet", "--no-watch", manifest], {
      cwd,
      env: { ...process.env, SPEKY_CACHE_DIR: cache },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("\n")) return;
      const wall = performance.now() - started;
      const cpu = cpuMs(child.pid!);
      child.kill();
      child.once("close", () => rmSync(cache, { recursive: true, force: true }));
      resolve({ wall, cpu });
    });
    child.on("error", reject);
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
      ...(early ? {} : { _meta: {} }),
    };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params })}\n`);
  });
}

async function pairedInitialize(label: string, cwd: string, manifest: string, pairs: number): Promise<string> {
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const walls = { early: [] as number[], sdk: [] as number[] };
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so that a load trend does not favour one side.
    const first = i % 2 === 0;
    const a = await initializeOnce(cwd, manifest, first);
    const b = await initializeOnce(cwd, manifest, !first);
    const [early, sdk] = first ? [a, b] : [b, a];
    walls.early.push(early.wall);
    walls.sdk.push(sdk.wall);
    ratios.push(early.wall / sdk.wall);
    if (early.cpu !== null && sdk.cpu !== null && sdk.cpu > 0) cpuRatios.push(early.cpu / sdk.cpu);
  }
  const wins = ratios.filter((r) => r < 1).length;
  const cpu = cpuRatios.length > 0 ? `, CPU ratio ${median(cpuRatios).toFixed(2)}` : "";
  return (
    `  ${label}: early ${median(walls.early).toFixed(0)} ms, SDK ${median(walls.sdk).toFixed(0)} ms (medians); ` +
    `paired ratio ${median(ratios).toFixed(2)}, early faster in ${wins}/${pairs} pairs${cpu}`
  );
}

export async function benchInitialize(pairs: number): Promise<string[]> {
  const lines = [`early initialize against the SDK's, ${pairs} paired spawns each (load ${load()})`];
  lines.push(await pairedInitialize("MCP fixture", REPO, "fixtures/mcp/speky.yaml", pairs));
  const dir = mkdtempSync(path.join(tmpdir(), "speky-departures-"));
  try {
    const manifest = await generateLargeSpec(dir, LARGE);
    lines.push(await pairedInitialize("10,000 requirements + 20,000 tests", dir, manifest, pairs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  lines.push(`  (load ${load()} at the end)`);
  return lines;
}

const REPEAT = 20;

function meanMs(run: () => unknown): number {
  run();
  const started = performance.now();
  for (let i = 0; i < REPEAT; i++) run();
  return (performance.now() - started) / REPEAT;
}

export async function benchOutputs(): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "speky-departures-"));
  try {
    const manifest = await generateLargeSpec(dir, LARGE);
    const loaded = await loadSpecs([manifest]);
    if (!loaded.specs) return ["outputs: the generated spec did not load"];
    const state = fixedState(buildModel(loaded.specs, null));
    const lines = [`McpServer's zod check of a result against the call's own cost, mean of ${REPEAT} (load ${load()})`];
    for (const [name, args] of [
      ["search_requirements", {}],
      ["search_tests", {}],
      ["test_plan_coverage", {}],
      ["least_tested_requirements", {}],
      ["get_requirement", { id: "REQ-00001" }],
    ] as const) {
      const spec = TOOLS.find((t) => t.name === name)!;
      const schema = z.object(outputShape(spec));
      const started = performance.now();
      const result = runTool(spec, state, { ...args });
      const first = performance.now() - started;
      const repeated = meanMs(() => runTool(spec, state, { ...args }));
      const write = meanMs(() => JSON.stringify(result));
      const check = meanMs(() => schema.safeParse(result.structuredContent));
      const bytes = JSON.stringify(result.structuredContent).length;
      lines.push(
        `  ${name.padEnd(26)} ${String(bytes).padStart(7)} B  first call ${first.toFixed(1).padStart(5)} ms, ` +
          `repeated ${repeated.toFixed(2).padStart(5)} ms, written ${write.toFixed(1).padStart(5)} ms; zod ${check.toFixed(1).padStart(5)} ms`,
      );
    }
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const what = process.argv[2] ?? "initialize";
  const pairs = Number(process.argv[3] ?? 8);
  const lines = what === "outputs" ? await benchOutputs() : await benchInitialize(pairs);
  for (const line of lines) console.log(line);
}
