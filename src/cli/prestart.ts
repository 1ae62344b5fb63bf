// Run by bin/speky.js before the command line's modules load (tens of ms): a scan likely to be
// warm and big gets its stat worker (scan/stat-split.ts) booting on the other core meanwhile,
// ready when the cache file is read. Anything else starts nothing.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { cacheDir } from "../scan/cache-dir.js";
import { prestartStatWorker, STAT_SPLIT_MIN_BYTES } from "../scan/stat-split.js";

/** Whether `args` is a cached `speky scan` and a cache file big enough for a split is there. */
export function wantsStatWorker(args: readonly string[], dir = cacheDir()): boolean {
  if (args[0] !== "scan" || args.includes("--no-cache")) return false;
  try {
    return readdirSync(dir).some((name) => /^scan-.*\.json$/.test(name) && (statSync(path.join(dir, name), { throwIfNoEntry: false })?.size ?? 0) >= STAT_SPLIT_MIN_BYTES);
  } catch {
    return false; // no cache folder yet
  }
}

// speky:speky-ts#SCAN-WARM-STATS
if (wantsStatWorker(process.argv.slice(2))) prestartStatWorker();
