// The process's one scan pool (pool.ts): made on first use, its workers started ahead of a walk,
// fed while walking, ended at will; and how many threads it may use.
import os from "node:os";
import { Pool, poolPossible, type TaskStream } from "./pool.js";

/** $SPEKY_SCAN_WORKERS overrides the pool size (0 or 1: no pool). */
export function poolSize(): number {
  const env = process.env.SPEKY_SCAN_WORKERS;
  if (env !== undefined && /^\d+$/.test(env)) return Number(env);
  return os.availableParallelism();
}

let shared: Pool | undefined;

export function pool(size: number): Pool {
  shared ??= new Pool(size);
  return shared;
}

/** Ends the workers now (tests, or a process about to exit that wants no stray thread). */
export function closePool(): void {
  shared?.close();
  shared = undefined;
}

/**
 * Starts the pool's workers now, for a scan about to read a whole tree afresh: they boot on
 * the other core while this thread walks, instead of from the walk's 2,000th file on.
 */
export function startWorkers(): void {
  const size = poolSize();
  if (poolPossible(size)) pool(size).prepare();
}

/** A pool run fed while walking (Pool.stream), or null when no pool can run here. */
export function streamTasks(onProgress: (done: number) => void, unstamped: boolean): TaskStream | null {
  const size = poolSize();
  if (!poolPossible(size)) return null;
  return pool(size).stream(onProgress, unstamped);
}
