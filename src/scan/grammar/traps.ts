// How many times a grammar's wasm failed at run time (a trap) in this thread, in a module of
// its own (no parser loaded to ask): after one, the thread's parser runtime can't be trusted
// (its stack or heap may be left as the trap found them), so a pool worker is replaced and the
// main thread hands its next parses to the pool (src/scan/read/).
let traps = 0;

export function grammarTraps(): number {
  return traps;
}

export function countTrap(): void {
  traps++;
}
