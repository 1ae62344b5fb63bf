// The main run's scan sections (main-run.ts): on a bench tree, `rg -l` of the tag marker, then
// `speky scan --project` and the manifest scan users run, cold (--no-cache) and warm (cached),
// each the best of 3; whether warm output equals cold, the peak RSS, and how many planted tags
// the scan found on the function they were planted above. A missed scan goal is profiled.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { BIN, fastest, peakRss, runSpeky, runTimed } from "../child-runs.js";
import { fmtMs, loadAverage, log } from "../goal-table.js";
import { profileLines, summarizeProfiles } from "../profile.js";
import { BENCH_PROJECT, type BenchTree } from "./tree.js";

const RG = "/usr/bin/rg";

/** What `speky scan` prints (the part the bench reads). */
export interface ScanDoc {
  references: { id: string; file: string; symbol: string | null }[];
  stats: { files: number; files_with_tags: number; tags: number; ms: number };
}

const withoutMs = (json: string) => json.replace(/"ms": \d+/, '"ms": 0');

export interface ScanFigures {
  rgMs: number | null;
  /** The manifest scan, what users run (`speky scan speky.yaml`): the goals' figures. */
  coldMs: number;
  warmMs: number;
  /** `speky scan --project NAME .` over the same files. */
  projectColdMs: number;
  projectWarmMs: number;
  rssMb: number | null;
  recall: { found: number; planted: number; onSymbol: number };
}

function recallOf(tree: BenchTree, doc: ScanDoc): ScanFigures["recall"] {
  const found = new Map(doc.references.map((r) => [`${r.file}#${r.id}`, r.symbol]));
  let hits = 0;
  let onSymbol = 0;
  for (const p of tree.planted) {
    const key = `${p.file}#${p.id}`;
    if (!found.has(key)) continue;
    hits++;
    const symbol = found.get(key);
    if (symbol === p.symbol || symbol?.endsWith(`.${p.symbol}`)) onSymbol++;
  }
  return { found: hits, planted: tree.planted.length, onSymbol };
}

export function benchScan(tree: BenchTree, cacheDir: string, title: string): ScanFigures {
  log();
  log(
    `${title}: ${tree.files.toLocaleString("en-US")} files, ${(tree.bytes / 1e6).toFixed(0)} MB, ${tree.planted.length.toLocaleString("en-US")} planted tags`,
  );
  log(`   tree: ${tree.repo}`);
  const composition = tree.composition
    ? `real files of this machine: ${Object.entries(tree.composition)
        .map(([language, n]) => `${n.toLocaleString("en-US")} ${language}`)
        .join(", ")}`
    : "copies of this package's node_modules source files + generated .py .go .rs .java .ts";
  log(`   (${composition}; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores)`);
  const env = { SPEKY_CACHE_DIR: cacheDir };
  // Run in the tree, on ".": the reported paths are the planted ones.
  const scanArgs = ["scan", "--project", BENCH_PROJECT, "."];
  const spekyIn = (args: string[]) => runSpeky(args, env, tree.repo);

  let rgMs: number | null = null;
  if (existsSync(RG)) {
    runTimed(RG, ["-l", "speky:", tree.repo]); // page cache warm-up, for both sides
    const rg = fastest([0, 1, 2].map(() => runTimed(RG, ["-l", "speky:", tree.repo])));
    rgMs = rg.ms;
    const listed = rg.stdout.split("\n").filter(Boolean).length;
    log(`   rg -l speky:                 ${fmtMs(rg.ms).padStart(8)}   (${listed} files listed, best of 3; ${loadAverage()})`);
  } else {
    log(`   rg -l speky:                 ripgrep is not installed (${RG}): no ratios (apt-get install ripgrep)`);
  }

  const coldArgs = ["scan", "--no-cache", ...scanArgs.slice(1)];
  const cold = [0, 1, 2].map(() => spekyIn(coldArgs));
  const coldBest = fastest(cold);
  const doc = JSON.parse(coldBest.stdout) as ScanDoc;
  log(
    `   speky scan --no-cache (cold) ${fmtMs(coldBest.ms).padStart(8)}   (${doc.stats.files} files, ${doc.stats.files_with_tags} with tags, best of 3; ${loadAverage()})`,
  );

  rmSync(cacheDir, { recursive: true, force: true });
  const priming = spekyIn(scanArgs);
  log(`   speky scan, cache written    ${fmtMs(priming.ms).padStart(8)}   (cold, then the cache written)`);
  const warm = [0, 1, 2].map(() => spekyIn(scanArgs));
  const warmBest = fastest(warm);
  log(`   speky scan (warm, cached)    ${fmtMs(warmBest.ms).padStart(8)}   (best of 3; ${loadAverage()})`);
  const identical =
    warm.every((r) => withoutMs(r.stdout) === withoutMs(coldBest.stdout)) && withoutMs(priming.stdout) === withoutMs(coldBest.stdout);
  log(`   warm output identical to cold: ${identical ? "yes" : "NO"}`);
  const rssMb = peakRss([...cold, priming, ...warm]);
  log(
    `   peak RSS: cold ${peakRss(cold)?.toFixed(0) ?? "?"} MB, cache writing ${peakRss([priming])?.toFixed(0) ?? "?"} MB, warm ${peakRss(warm)?.toFixed(0) ?? "?"} MB`,
  );
  const recall = recallOf(tree, doc);
  log(`   recall: ${recall.found}/${recall.planted} planted tags found, ${recall.onSymbol} on the function they were planted above`);
  // The manifest scan users run, over the same files: its specs loaded, its references relative to the manifest.
  const manifestIn = (args: string[]) => runSpeky(args, env, tree.dir);
  const manifestCold = fastest([0, 1, 2].map(() => manifestIn(["scan", "--no-cache", tree.manifest])));
  log(
    `   speky scan M --no-cache (cold) ${fmtMs(manifestCold.ms).padStart(6)}   (the manifest, what users run; best of 3; ${loadAverage()})`,
  );
  rmSync(cacheDir, { recursive: true, force: true });
  manifestIn(["scan", tree.manifest]);
  const manifestWarm = [0, 1, 2].map(() => manifestIn(["scan", tree.manifest]));
  log(`   speky scan M (warm, cached)  ${fmtMs(fastest(manifestWarm).ms).padStart(8)}   (best of 3; ${loadAverage()})`);
  const sameManifest = manifestWarm.every((r) => withoutMs(r.stdout) === withoutMs(manifestCold.stdout));
  log(`   manifest warm output identical to cold: ${sameManifest ? "yes" : "NO"}`);
  return {
    rgMs,
    coldMs: manifestCold.ms,
    warmMs: fastest(manifestWarm).ms,
    projectColdMs: coldBest.ms,
    projectWarmMs: warmBest.ms,
    rssMb,
    recall,
  };
}

/** One scan under `node --cpu-prof`, its profiles summed into buckets (profile.ts). */
export function profileScan(label: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): void {
  const dir = mkdtempSync(path.join(tmpdir(), "speky-bench-prof-"));
  try {
    const r = runTimed(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, BIN, ...args], env, cwd);
    log(`   ${label}: ${fmtMs(r.ms)} under the profiler`);
    for (const line of profileLines(summarizeProfiles(dir))) log(`   ${line}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
