// A warm scan's cost is mostly one stat per cached file (the system call). With a second
// core, a worker started while the cache file is read stats the cached files while this
// thread still checks the remembered walks; this thread then joins in on what is left. Both
// take chunks of rows from a shared counter and write the stamps (stat-rows.ts) into shared
// memory, so nothing is copied and neither waits for the other but for one chunk at the end.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { statInto } from "./stat-rows.js";

const WORKER_FILE = fileURLToPath(
  import.meta.url.endsWith(".ts") ? new URL("../../dist/scan/stat-worker.js", import.meta.url) : new URL("./stat-worker.js", import.meta.url),
);

/** Below this many cached files one thread stats them sooner than a worker starts. */
export const STAT_SPLIT_MIN = 4000;
/** Rows taken at a time from the shared counter. */
export const STAT_CHUNK = 256;
/** How long this thread waits for a chunk the worker took before statting it itself. */
const CHUNK_PATIENCE_MS = 2000;

/** What the worker is sent: the paths and the shared memory. */
export interface StatJob {
  /** The paths' keys (stat-rows.ts absoluteKey), one per line: a cache file holds them so. */
  keys: string;
  prefix: string;
  /** The first paths are walk stamps (stat-rows.ts). */
  walkStamps: number;
  /** [next row to take]; then per chunk: 1 once its stamps are written. */
  control: SharedArrayBuffer;
  rows: SharedArrayBuffer;
}

/** The chunks taken by whoever takes them first; each marked when written. */
export function statChunks(keys: readonly string[], prefix: string, control: Int32Array, rows: Float64Array, walkStamps: number, until = keys.length): number {
  let taken = 0;
  for (;;) {
    if (Atomics.load(control, 0) >= until) return taken;
    const from = Atomics.add(control, 0, STAT_CHUNK);
    if (from >= keys.length) return taken;
    const to = Math.min(keys.length, from + STAT_CHUNK);
    statInto(keys, prefix, rows, from, to, walkStamps);
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

/** How the last split went (tests): paths stat'ed by the worker and by this thread, of which walk stamps. */
export let lastSplit: { worker: number; here: number; walkStamps: number } | null = null;

// speky:speky-ts#SCAN-WARM-STATS
export class StatSplit {
  private readonly worker: Worker | null;
  private readonly control: Int32Array;
  private readonly rows: Float64Array;
  private done: Float64Array | null = null;
  /** Resolves when the worker has ended (tests). */
  readonly ended: Promise<void>;
  /** Paths stat'ed on this thread: chunks taken, and chunks the worker took but did not write in time. */
  private here = 0;
  private late = 0;
  /** Rows known written: every path below it. */
  private written = 0;

  /**
   * `paths`: keys under `prefix` (stat-rows.ts absoluteKey), the walks' stamped folders and
   * ignore files first (`walkStamps` of them, stamped first: the walks are checked before the
   * files), then one per cached row; `joined`: the same, one per line, sent to the worker as
   * one string (a cache file holds its rows so: nothing to build); `worker`: one
   * startStatWorker started, else one now.
   */
  constructor(
    private readonly paths: readonly string[],
    private readonly prefix: string,
    joined = paths.join("\n"),
    worker = startStatWorker(),
    private readonly walkStamps = 0,
  ) {
    const chunks = Math.ceil(paths.length / STAT_CHUNK);
    const control = new SharedArrayBuffer(4 * (1 + chunks));
    const rows = new SharedArrayBuffer(8 * 3 * paths.length);
    this.control = new Int32Array(control);
    this.rows = new Float64Array(rows);
    this.worker = worker;
    this.ended = worker ? new Promise((resolve) => worker.once("exit", () => resolve())) : Promise.resolve();
    if (!worker) return;
    worker.postMessage({ keys: joined, prefix, walkStamps, control, rows } satisfies StatJob);
  }

  /** The rows of the first `count` paths, written: taken here if the worker has not yet, else awaited. */
  stampsUpTo(count: number): Float64Array {
    if (this.done) return this.done;
    // Asked once per walked folder: the rows already known written are not checked again.
    if (count > this.written) {
      this.here += statChunks(this.paths, this.prefix, this.control, this.rows, this.walkStamps, count);
      this.late += this.awaitChunks(count);
      this.written = count;
    }
    return this.rows;
  }

  /** Waits for the chunks below `count` the worker took; stats them here if it died meanwhile. */
  private awaitChunks(count: number): number {
    let late = 0;
    for (let chunk = 0; chunk * STAT_CHUNK < count; chunk++) {
      const flag = 1 + chunk;
      if (Atomics.load(this.control, flag) === 1) continue;
      // Taken by the worker and not written yet: a few stats' time, unless it died meanwhile.
      if (Atomics.wait(this.control, flag, 0, CHUNK_PATIENCE_MS) === "timed-out" && Atomics.load(this.control, flag) !== 1) {
        const from = chunk * STAT_CHUNK;
        const to = Math.min(this.paths.length, from + STAT_CHUNK);
        statInto(this.paths, this.prefix, this.rows, from, to, this.walkStamps);
        Atomics.store(this.control, flag, 1);
        late += to - from;
      }
    }
    return late;
  }

  /** The stamps of every row: what is left is taken here, then the worker's last chunk awaited. */
  stamps(): Float64Array {
    if (this.done) return this.done;
    this.stampsUpTo(this.paths.length);
    void this.worker?.terminate();
    lastSplit = { worker: this.paths.length - this.here - this.late, here: this.here + this.late, walkStamps: this.walkStamps };
    this.done = this.rows;
    return this.rows;
  }

  /** Not needed after all: the worker goes. */
  close(): void {
    void this.worker?.terminate();
  }
}
