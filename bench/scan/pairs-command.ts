// `npm run bench -- scan [--base DIR] [--runs N] [--memory N] [--mcp]`: which paired runs go,
// from the options; the pairs themselves are pairs.ts (scans) and ../servers/mcp-pairs.ts.
import path from "node:path";
import { BIN } from "../child-runs.js";
import { log } from "../goal-table.js";
import { mcpPairLines } from "../servers/mcp-pairs.js";
import { linkedCopy, memoryLines, pairLines, pairRuns, smallFilesTree } from "./pairs.js";
import { ensureBenchTree } from "./tree.js";

/**
 * `npm run bench -- scan [--base DIR] [--runs N] [--memory N]`: the manifest scan and
 * `--project`, cold and warm, paired with rg (bench/scan/pairs.ts) on the bench tree and on
 * a copy of it with 30 links; with --base, the build in DIR (an older commit's, after `npm ci`)
 * against this one; then speky-mcp's first code reference against a cold scan (bench/servers/mcp-pairs.ts;
 * `--mcp`: that alone); with --memory N, the peak RSS of scans of N small files instead.
 */
export async function benchScanPairs(args: string[]): Promise<void> {
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const runs = Number(option("--runs") ?? 7);
  const base = option("--base");
  const builds = [...(base ? [{ label: "base", bin: path.resolve(base, "bin/speky.js") }] : []), { label: "new", bin: BIN }];
  const files = option("--memory");
  if (files !== undefined) {
    // `--memory N`: the peak RSS of a tree of N small files (1,000,000: the issue's), built in the temp dir.
    const count = Number(files);
    for (const line of memoryLines(smallFilesTree(count), builds, count)) log(`   ${line}`);
    return;
  }
  const tree = ensureBenchTree((line) => log(`   ${line}`));
  const real = { label: "issue 14's tree", dir: tree.dir };
  if (args.includes("--mcp")) {
    // `--mcp`: the servers' background scan only (bench/servers/mcp-pairs.ts).
    log(`MCP pairs: ${real.label}, ${runs} interleaved rounds`);
    for (const line of await mcpPairLines(real, builds, runs, MCP_PAIR_ID, log)) log(`   ${line}`);
    return;
  }
  for (const t of [real, linkedCopy(real, 30)]) {
    log(`Scan pairs: ${t.label}, ${runs} interleaved rounds`);
    const result = pairRuns(t, builds, runs, log);
    for (const line of pairLines(result)) log(`   ${line}`);
    log();
  }
  log(`MCP pairs: ${real.label}, ${runs} interleaved rounds`);
  for (const line of await mcpPairLines(real, builds, runs, MCP_PAIR_ID, log)) log(`   ${line}`);
}

/** A requirement of the bench tree whose tag the scan finds (tree-real.ts plants R00001 first). */
const MCP_PAIR_ID = "R00001";
