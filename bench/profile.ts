// What bounds a scan: the CPU profiles of its threads (node --cpu-prof writes one per thread)
// summed into buckets (walk, read, parse, query...), each sample attributed to the nearest
// frame that names a bucket.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export const BUCKETS = [
  "tree-sitter parse",
  "tree-sitter query",
  "tree access (node API)",
  "tag engine (JS)",
  "walk",
  "stat (cache check)",
  "read + prefilter",
  "cache file",
  "pool messages",
  "startup, modules",
  "garbage collector",
  "other",
] as const;
export type Bucket = (typeof BUCKETS)[number];

// The scanner's folders (src/scan/<stage>/) and the fs modules the walk and the reads use.
const ENGINE = /\/scan\/(engine|grammar)\/[^/]+\.[jt]s$/;
const WALK = /\/(scan\/walk\/[^/]+|fs\/(?!safe-read|fast-stat)[^/]+)\.[jt]s$/;
const STAT = /\/fs\/fast-stat\.[jt]s$/;
const CACHE = /\/scan\/cache\/[^/]+\.[jt]s$/;
const READ = /\/(scan\/read\/(worker-task|walk-feed|read-jobs)|fs\/safe-read)\.[jt]s$/;
const POOL = /\/scan\/read\/(pool|shared-pool|worker|run-tasks|slot|progress)\.[jt]s$/;

/** The bucket a frame names, or null to look further up the stack. */
function bucketOf(frame: CallFrame): Bucket | null {
  const { functionName: fn, url } = frame;
  if (fn === "(garbage collector)") return "garbage collector";
  if (url.includes("tree-sitter.wasm") || url.startsWith("wasm://") || fn.startsWith("ts_") || fn.startsWith("wasm-function")) {
    return fn.startsWith("ts_query") ? "tree-sitter query" : null; // the rest: parse, unless a query or node call is above
  }
  if (/web-tree-sitter/.test(url))
    return fn === "matches" || fn === "captures" ? "tree-sitter query" : fn === "parse" ? "tree-sitter parse" : null;
  if (ENGINE.test(url)) return fn === "indexDefinitions" ? "tree-sitter query" : "tag engine (JS)";
  if (fn === "isUnchanged" || fn === "statStamp" || fn === "unchanged" || STAT.test(url)) return "stat (cache check)";
  if (WALK.test(url)) return "walk";
  if (CACHE.test(url)) return "cache file";
  if (READ.test(url)) return "read + prefilter";
  if (POOL.test(url) || /worker_threads|internal\/worker/.test(url)) return "pool messages";
  if (/internal\/modules\/|compileSourceTextModule|bootstrap/.test(url + fn)) return "startup, modules";
  return null;
}

function wasmLeaf(frame: CallFrame): boolean {
  return (
    frame.url.includes("tree-sitter.wasm") ||
    frame.url.startsWith("wasm://") ||
    frame.functionName.startsWith("ts_") ||
    frame.functionName.startsWith("wasm-function")
  );
}

export interface ThreadProfile {
  file: string;
  wallMs: number;
  idleMs: number;
  byBucket: Map<Bucket, number>;
}

function summarize(file: string): ThreadProfile {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const bucketCache = new Map<number, Bucket | "idle">();
  const resolve = (leaf: number): Bucket | "idle" => {
    const cached = bucketCache.get(leaf);
    if (cached) return cached;
    const leafFrame = byId.get(leaf)!.callFrame;
    let found: Bucket | "idle" = "other";
    if (leafFrame.functionName === "(idle)") found = "idle";
    else {
      let sawWasm = false;
      for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id)!.callFrame;
        if (wasmLeaf(frame)) sawWasm = true;
        const bucket = bucketOf(frame);
        if (bucket) {
          found = bucket;
          break;
        }
      }
      if (found === "other" && sawWasm) found = "tree-sitter parse";
      // Wasm code under a node accessor (parent, children...) is the node API, not the parse.
      if (found === "tag engine (JS)" && sawWasm) found = "tree access (node API)";
    }
    bucketCache.set(leaf, found);
    return found;
  };
  const byBucket = new Map<Bucket, number>();
  let idleMs = 0;
  profile.samples.forEach((leaf, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const bucket = resolve(leaf);
    if (bucket === "idle") idleMs += ms;
    else byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + ms);
  });
  return { file, wallMs: (profile.endTime - profile.startTime) / 1000, idleMs, byBucket };
}

/** Every thread's profile in `dir`, main thread first. */
export function summarizeProfiles(dir: string): ThreadProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .map((f) => summarize(path.join(dir, f)));
}

/** Lines: CPU per bucket summed over the threads, largest first, and each thread's share. */
export function profileLines(threads: ThreadProfile[]): string[] {
  const total = new Map<Bucket, number>();
  for (const t of threads) for (const [b, ms] of t.byBucket) total.set(b, (total.get(b) ?? 0) + ms);
  const cpu = [...total.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `  threads: ${threads.map((t, i) => `${i === 0 ? "main" : `worker ${i}`} ${Math.round(t.wallMs - t.idleMs)} ms busy / ${Math.round(t.wallMs)} ms`).join(", ")}`,
    `  CPU by bucket (all threads, ${Math.round(cpu)} ms sampled):`,
  ];
  for (const [bucket, ms] of [...total].sort((a, b) => b[1] - a[1])) {
    if (ms < 0.005 * cpu) continue;
    lines.push(`    ${bucket.padEnd(24)} ${String(Math.round(ms)).padStart(7)} ms  ${((100 * ms) / cpu).toFixed(0).padStart(3)}%`);
  }
  return lines;
}
