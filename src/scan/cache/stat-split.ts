// A warm scan's cost is mostly one stat per cached file (the system call). With a second
// core, a worker (booted while the cache file is read) stats the cached files from the moment
// the cache file's signature is checked, while this thread still parses that file and checks
// the remembered walks; this thread then joins in on what is left. Both take chunks of rows from a shared counter and
// write the stamps (stat-rows.ts) into shared memory, so nothing is copied and neither waits
// for the other but for one chunk at the end.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { statInto } from "./stat-rows.js";

const WORKER_FILE = fileURLToPath(
  import.meta.url.endsWith(".ts")
    ? new URL("../../../dist/scan/cache/stat-worker.js", import.meta.url)
    : new URL("./stat-worker.js", import.meta.url),
);

/** Below this many cached files one thread stats them sooner than a worker starts. */
export const STAT_SPLIT_MIN = 4000;
/** A cache file smaller than this holds fewer than STAT_SPLIT_MIN files (a path and a stamp take 32 bytes or more). */
export const STAT_SPLIT_MIN_BYTES = STAT_SPLIT_MIN * 32;
/** Rows taken at a time from the shared counter. */
export const STAT_CHUNK = 256;
/** How long this thread waits for a chunk the worker took before statting it itself. */
const CHUNK_PATIENCE_MS = 2000;

/** What the worker is sent: the paths and the shared memory. */
export interface StatJob {
  /**
   * The paths' keys (stat-rows.ts pathOfKey), one per line, as a JSON string literal: as
   * the cache file holds them, so that the worker, not this thread, parses them.
   */
  keysJson: string;
  prefix: string;
  /** [next row to take]; then per chunk: 1 once its stamps are written. */
  control: SharedArrayBuffer;
  rows: SharedArrayBuffer;
}

/** The chunks taken by whoever takes them first; each marked when written. */
export function statChunks(keys: readonly string[], prefix: string, control: Int32Array, rows: Float64Array): number {
  let taken = 0;
  for (;;) {
    const from = Atomics.add(control, 0, STAT_CHUNK);
    if (from >= keys.length) return taken;
    const to = Math.min(keys.length, from + STAT_CHUNK);
    statInto(keys, prefix, rows, from, to);
    taken += to - from;
    Atomics.store(control, 1 + from / STAT_CHUNK, 1);
    Atomics.notify(control, 1 + from / STAT_CHUNK);
  }
}

/**
 * The worker, started before its paths are known (while the cache file is read: both take
 * tens of ms); unref'ed, so a worker never sent its job does not keep the process alive.
 */
export function startStatWorker(): Worker | null {
  if (!existsSync(WORKER_FILE)) return null;
  const worker = new Worker(WORKER_FILE);
  worker.unref();
  worker.on("error", () => undefined); // its chunks are then done here (stamps)
  return worker;
}

/** How the last split went (tests): paths stat'ed by the worker and by this thread. */
export let lastSplit: { worker: number; here: number } | null = null;

// speky:speky-ts#SCAN-WARM-STATS
export class StatSplit {
  private readonly worker: Worker | null;
  private readonly prefix: string;
  private readonly control: Int32Array;
  private readonly rows: Float64Array;
  private done = false;
  /** Resolves when the worker has ended (tests). */
  readonly ended: Promise<void>;

  /**
   * `keysJson`: the `count` paths as StatJob says, keys under `prefix` (stat-rows.ts
   * pathOfKey); `worker`: one startStatWorker started, else one now.
   */
  constructor(keysJson: string, count: number, prefix: string, worker = startStatWorker()) {
    // Under the working directory (shared by the threads; speky never changes it): relative
    // paths, which the kernel resolves from there, a fifth faster than from the root.
    const cwd = process.cwd() + path.sep;
    this.prefix = prefix.startsWith(cwd) ? prefix.slice(cwd.length) : prefix;
    const control = new SharedArrayBuffer(4 * (1 + Math.ceil(count / STAT_CHUNK)));
    const rows = new SharedArrayBuffer(8 * 3 * count);
    this.control = new Int32Array(control);
    this.rows = new Float64Array(rows);
    this.worker = worker;
    this.ended = worker ? new Promise((resolve) => worker.once("exit", () => resolve())) : Promise.resolve();
    worker?.postMessage({ keysJson, prefix: this.prefix, control, rows } satisfies StatJob);
  }

  /**
   * The stamps of every row, `keys` being the paths the worker was sent: what is left is
   * taken here, then the chunks the worker took are awaited (stat'ed here if it died meanwhile).
   */
  stamps(keys: readonly string[]): Float64Array {
    if (this.done) return this.rows;
    this.done = true;
    const here = statChunks(keys, this.prefix, this.control, this.rows);
    let late = 0;
    for (let chunk = 0; chunk * STAT_CHUNK < keys.length; chunk++) {
      const flag = 1 + chunk;
      if (Atomics.load(this.control, flag) === 1) continue;
      // Taken by the worker and not written yet: a few stats' time, unless it died meanwhile.
      if (Atomics.wait(this.control, flag, 0, CHUNK_PATIENCE_MS) === "timed-out" && Atomics.load(this.control, flag) !== 1) {
        const from = chunk * STAT_CHUNK;
        const to = Math.min(keys.length, from + STAT_CHUNK);
        statInto(keys, this.prefix, this.rows, from, to);
        late += to - from;
      }
    }
    void this.worker?.terminate();
    lastSplit = { worker: keys.length - here - late, here: here + late };
    return this.rows;
  }

  /** Not needed after all: the worker goes. */
  close(): void {
    void this.worker?.terminate();
  }
}
