// The servers' sections of the main run (main-run.ts; `npm run bench -- lsp`: the LSP one
// alone): each server's latency bench run and printed, and the figures its goals are checked on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fastest, runSpeky } from "../child-runs.js";
import { generateLargeSpec } from "../generate.js";
import { fmtMs, type GoalRow, loadAverage, log } from "../goal-table.js";
import type { ScanDoc } from "../scan/speed-and-recall.js";
import { writeTaggedSources } from "../tagged-sources.js";
import { benchLsp, LSP_GOALS } from "./lsp-latency.js";
import { benchMcp } from "./mcp-latency.js";

/** The MCP bench's project (bench/servers/mcp-latency.ts), for our cold scan of the same files. */
const MCP_SIZE = { requirements: 10_000, tests: 20_000, codeReferences: 50_000 };

/** Our cold scan of the project the MCP bench serves, then that bench: the server's start-up figures and that scan's time. */
export async function benchMcpServer(
  cacheDir: string,
): Promise<{ initMs: number | null; firstReferenceMs: number | null; coldMs: number }> {
  log();
  log("4. MCP server (bench/servers/mcp-latency.ts)");
  // Our cold scan of the very project the MCP bench serves, for its start-up goal.
  const dir = mkdtempSync(path.join(tmpdir(), "speky-bench-mcp-"));
  let coldMs: number;
  try {
    const manifest = await generateLargeSpec(dir, MCP_SIZE);
    await writeTaggedSources(dir, MCP_SIZE);
    const cold = fastest([0, 1, 2].map(() => runSpeky(["scan", "--no-cache", manifest], { SPEKY_CACHE_DIR: cacheDir })));
    coldMs = cold.ms;
    const tags = cold.status === 0 ? (JSON.parse(cold.stdout) as ScanDoc).references.length : 0;
    log(
      `   speky scan --no-cache of the same project (load + scan, cold): ${fmtMs(coldMs)} (${tags} references, best of 3; ${loadAverage()})`,
    );
    if (tags === 0) log(`   (that scan failed: exit ${cold.status}, ${cold.stderr.trim().split("\n")[0]})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.env.SPEKY_CACHE_DIR = cacheDir; // the server it spawns caches there, not in ~/.cache
  const lines = await benchMcp();
  for (const line of lines) log(`   ${line}`);
  const figure = (re: RegExp) => {
    const m = lines.map((l) => re.exec(l)).find(Boolean);
    return m ? Number(m[1]) : null;
  };
  log(`   (${loadAverage()})`);
  return {
    initMs: figure(/spawn to initialize answer[^:]*:\s*(\d+)\s*ms/),
    firstReferenceMs: figure(/spawn to first code reference[^:]*:\s*(\d+)\s*ms/),
    coldMs,
  };
}

/** `speky lsp` on the same 10,000-requirement project (bench/servers/lsp-latency.ts): its goal rows. */
export async function benchLspServer(cacheDir: string): Promise<GoalRow[]> {
  log();
  log("LSP server (bench/servers/lsp-latency.ts)");
  process.env.SPEKY_CACHE_DIR = cacheDir;
  const { lines, p99, diagnosticsMs } = await benchLsp();
  for (const line of lines) log(`   ${line}`);
  const worst = (values: Record<string, number>) => (Object.keys(values).length ? Math.max(...Object.values(values)) : null);
  const requests = worst(p99);
  const diagnostics = worst(diagnosticsMs);
  return [
    {
      goal: "LSP hover/definition/completion p99",
      measured: requests === null ? "?" : `${requests.toFixed(1)} ms (worst)`,
      target: `< ${LSP_GOALS.requestP99Ms} ms`,
      met: requests === null ? null : requests < LSP_GOALS.requestP99Ms,
    },
    {
      goal: "LSP keystroke → diagnostics",
      measured: diagnostics === null ? "?" : `${fmtMs(diagnostics)} (worst)`,
      target: `< ${LSP_GOALS.diagnosticsMs} ms`,
      met: diagnostics === null ? null : diagnostics < LSP_GOALS.diagnosticsMs,
    },
  ];
}
