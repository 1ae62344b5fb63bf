// The process's one scan pool (pool.ts): made on first use, its workers started ahead of a walk,
// fed while walking, ended at will. Its size is poolSize() (pool-size.ts).
import { Pool, poolPossible, type TaskStream } from "./pool.js";
import { poolSize } from "./pool-size.js";

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
