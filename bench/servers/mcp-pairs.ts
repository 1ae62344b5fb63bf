// The servers' background scan as users meet it, paired with the command line's cold scan of
// the same manifest in the same rounds (`npm run bench -- scan`): speky-mcp spawned on the bench
// tree with an empty scan cache, from spawn to the first answer holding code references
// (get_requirement of a tagged requirement waits for the scan), against `speky scan --no-cache`
// of that manifest; each build's figures in turn, the builds' order alternating by round.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { type Build, median, type PairTree, timed } from "../scan/pairs.js";
import { RawClient } from "./mcp-latency.js";

/** Wall milliseconds from spawn to the first whole answer with code references, and how many it held. */
async function firstReference(build: Build, tree: PairTree, id: string): Promise<{ ms: number; references: number }> {
  const cache = mkdtempSync(path.join(tmpdir(), "speky-bench-mcp-cache-"));
  const server = path.join(path.dirname(build.bin), "speky-mcp.js");
  const started = performance.now();
  const child = spawn(process.execPath, [server, "--quiet", "speky.yaml"], {
    cwd: tree.dir,
    env: { ...process.env, SPEKY_CACHE_DIR: cache, SPEKY_MCP_SCAN_WAIT_MS: "600000" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    const client = new RawClient(child);
    const failed = exited.then((code) => ({ error: { code: -1, message: `speky-mcp exited ${code}: ${stderr.trim()}` } }));
    const init = await Promise.race([
      client.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "speky-bench", version: "0" } }),
      failed,
    ]);
    if ("error" in init && init.error) throw new Error(init.error.message);
    client.notify("notifications/initialized");
    const answer = await Promise.race([client.request("tools/call", { name: "get_requirement", arguments: { id } }), failed]);
    const ms = performance.now() - started;
    if ("error" in answer && answer.error) throw new Error(answer.error.message);
    const result = (answer as { result?: { structuredContent?: { code_references?: unknown[] } } }).result;
    return { ms, references: result?.structuredContent?.code_references?.length ?? 0 };
  } finally {
    child.stdin.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    child.kill();
    rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * `runs` rounds of, per build, a cold command-line scan of the manifest and a server's first
 * code reference; lines with min and median wall of each and the ratio of the medians.
 */
export async function mcpPairLines(
  tree: PairTree,
  builds: Build[],
  runs: number,
  id: string,
  log: (line: string) => void,
): Promise<string[]> {
  const cold = builds.map(() => [] as number[]);
  const first = builds.map(() => [] as number[]);
  const loads = [os.loadavg()[0]];
  let references = -1;
  for (let round = 0; round < runs; round++) {
    const order = builds.map((_, k) => k);
    if (round % 2 === 1) order.reverse();
    for (const k of order) {
      const cache = mkdtempSync(path.join(tmpdir(), "speky-bench-pair-cache-"));
      try {
        const scan = timed(process.execPath, [builds[k].bin, "scan", "--no-cache", "speky.yaml"], tree.dir, { SPEKY_CACHE_DIR: cache });
        if (scan.status !== 0) throw new Error(`${builds[k].label} speky scan exited ${scan.status}`);
        cold[k].push(scan.ms);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
      const answer = await firstReference(builds[k], tree, id);
      if (references >= 0 && answer.references !== references) throw new Error(`${builds[k].label}: ${answer.references} code references`);
      references = answer.references;
      first[k].push(answer.ms);
    }
    loads.push(os.loadavg()[0]);
    log(`   round ${round + 1}/${runs} done (load ${os.loadavg()[0].toFixed(1)})`);
  }
  const lines = [
    `${tree.label}: speky-mcp spawn → first code reference (get_requirement ${id}: ${references} references) against a cold ` +
      `\`speky scan --no-cache speky.yaml\` (load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} on ${os.availableParallelism()} cores)`,
    `${"".padEnd(28)}${"min ms".padStart(8)}${"median".padStart(8)}${"ratio".padStart(8)}`,
  ];
  builds.forEach((b, k) => {
    lines.push(
      `${`${b.label} cold scan`.padEnd(28)}${String(Math.round(Math.min(...cold[k]))).padStart(8)}${String(Math.round(median(cold[k]))).padStart(8)}`,
    );
    lines.push(
      `${`${b.label} mcp first reference`.padEnd(28)}${String(Math.round(Math.min(...first[k]))).padStart(8)}${String(Math.round(median(first[k]))).padStart(8)}${(median(first[k]) / median(cold[k])).toFixed(2).padStart(8)}`,
    );
  });
  return lines;
}
