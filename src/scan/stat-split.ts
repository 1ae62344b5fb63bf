// A warm scan's cost is mostly one stat per cached file (the system call). With a second
// core, a worker started as soon as the cache file is read stats the cached files while this
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
  paths: string;
  /** [next row to take]; then per chunk: 1 once its stamps are written. */
  control: SharedArrayBuffer;
  rows: SharedArrayBuffer;
}

/** The chunks taken by whoever takes them first; each marked when written. */
export function statChunks(paths: readonly string[], control: Int32Array, rows: Float64Array): number {
  let taken = 0;
  for (;;) {
    const from = Atomics.add(control, 0, STAT_CHUNK);
    if (from >= paths.length) return taken;
    const to = Math.min(paths.length, from + STAT_CHUNK);
    statInto(paths, rows, from, to);
    taken += to - from;
    Atomics.store(control, 1 + from / STAT_CHUNK, 1);
    Atomics.notify(control, 1 + from / STAT_CHUNK);
  }
}

/** How the last split went (tests): files stat'ed by the worker and by this thread. */
export let lastSplit: { worker: number; here: number } | null = null;

// speky:speky-ts#SCAN-WARM-STATS
export class StatSplit {
  private readonly worker: Worker | null;
  private readonly control: Int32Array;
  private readonly rows: Float64Array;
  private done: Float64Array | null = null;
  /** Resolves when the worker has ended (tests). */
  readonly ended: Promise<void>;

  /** `paths`: absolute, one per cached row. */
  constructor(private readonly paths: readonly string[]) {
    const chunks = Math.ceil(paths.length / STAT_CHUNK);
    const control = new SharedArrayBuffer(4 * (1 + chunks));
    const rows = new SharedArrayBuffer(8 * 3 * paths.length);
    this.control = new Int32Array(control);
    this.rows = new Float64Array(rows);
    this.worker = existsSync(WORKER_FILE) ? new Worker(WORKER_FILE) : null;
    const worker = this.worker;
    this.ended = worker ? new Promise((resolve) => worker.once("exit", () => resolve())) : Promise.resolve();
    if (!worker) return;
    worker.unref();
    worker.on("error", () => undefined); // its chunks are then done here (stamps)
    worker.postMessage({ paths: paths.join("\0"), control, rows } satisfies StatJob);
  }

  /** The stamps of every row: what is left is taken here, then the worker's last chunk awaited. */
  stamps(): Float64Array {
    if (this.done) return this.done;
    const here = statChunks(this.paths, this.control, this.rows);
    let late = 0;
    for (let chunk = 0; chunk * STAT_CHUNK < this.paths.length; chunk++) {
      const flag = 1 + chunk;
      if (Atomics.load(this.control, flag) === 1) continue;
      // Taken by the worker and not written yet: a few stats' time, unless it died meanwhile.
      if (Atomics.wait(this.control, flag, 0, CHUNK_PATIENCE_MS) === "timed-out" && Atomics.load(this.control, flag) !== 1) {
        const from = chunk * STAT_CHUNK;
        const to = Math.min(this.paths.length, from + STAT_CHUNK);
        statInto(this.paths, this.rows, from, to);
        late += to - from;
      }
    }
    void this.worker?.terminate();
    lastSplit = { worker: this.paths.length - here - late, here: here + late };
    this.done = this.rows;
    return this.rows;
  }

  /** Not needed after all: the worker goes. */
  close(): void {
    void this.worker?.terminate();
  }
}
