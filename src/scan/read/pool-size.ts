// How many threads a scan's pool may use, in a module of its own: a warm scan asks (for its stat
// worker) without loading the pool.
import os from "node:os";

/** $SPEKY_SCAN_WORKERS overrides the pool size (0 or 1: no pool). */
export function poolSize(): number {
  const env = process.env.SPEKY_SCAN_WORKERS;
  if (env !== undefined && /^\d+$/.test(env)) return Number(env);
  return os.availableParallelism();
}
