// A warm scan's cost is mostly one stat per file (the system call, on this thread). With a
// second core, a worker started while the cache file is read and the walk replayed stats the
// second half of the files while this thread stats the first.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { statInto } from "./stat-rows.js";

const WORKER_FILE = fileURLToPath(
  import.meta.url.endsWith(".ts") ? new URL("../../dist/scan/stat-worker.js", import.meta.url) : new URL("./stat-worker.js", import.meta.url),
);

/** Below this many cached files one thread stats them sooner than a worker starts. */
export const STAT_SPLIT_MIN = 4000;

/** How the last split went (tests): files stat'ed by the worker and by this thread. */
export let lastSplit: { worker: number; here: number } | null = null;

export class StatSplit {
  private readonly worker: Worker | null;
  private failed = false;

  constructor() {
    this.worker = existsSync(WORKER_FILE) ? new Worker(WORKER_FILE) : null;
    this.worker?.unref();
    this.worker?.on("error", () => {
      this.failed = true;
    });
  }

  /** The stamps of `paths` (stat-rows.ts); the worker is done afterwards. */
  async statAll(paths: readonly string[]): Promise<Float64Array> {
    const rows = new Float64Array(paths.length * 3);
    const worker = this.worker;
    if (!worker || this.failed) {
      statInto(paths, rows, 0);
      lastSplit = { worker: 0, here: paths.length };
      return rows;
    }
    const half = Math.ceil(paths.length / 2);
    const theirs = new Promise<Float64Array | null>((resolve) => {
      worker.once("message", (r: Float64Array) => resolve(r));
      worker.once("error", () => resolve(null));
      worker.once("exit", () => resolve(null));
    });
    worker.postMessage(paths.slice(half).join("\0"));
    statInto(paths.slice(0, half), rows, 0);
    const other = await theirs;
    void worker.terminate();
    if (other && other.length === (paths.length - half) * 3) {
      rows.set(other, half * 3);
      lastSplit = { worker: paths.length - half, here: half };
    } else {
      statInto(paths.slice(half), rows, half);
      lastSplit = { worker: 0, here: paths.length };
    }
    return rows;
  }

  /** Not used after all (a cold scan): the worker goes. */
  close(): void {
    void this.worker?.terminate();
  }
}
