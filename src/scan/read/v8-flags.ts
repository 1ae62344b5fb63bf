// The scan's only V8 flags, both for a command line's one process (a server sets neither), both
// process-wide through v8.setFlagsFromString before the code they tune first runs.
//
// - Baseline wasm only (--liftoff-only), set before the first grammar compiles: the optimising
//   tier recompiles the big grammars (TypeScript's is 2.3 MB of wasm) in the background for
//   ~0.7 s of CPU, and a process or worker can't exit before that is done: a pre-commit check
//   that parsed one .ts file took 1.0 s instead of 0.35 s. speky-mcp too (its first scan; see
//   commands/mcp.ts); speky lsp keeps V8's default (it sets SPEKY_WASM_TIERUP=1, as a user may:
//   it parses on its own thread at each keystroke for as long as the editor runs).
// - Later optimization (8x V8's interrupt budget) for a cold scan of a whole tree, when the
//   command line allowed it (allowLateOptimization): three isolates then recompile less of the
//   scanner on two cores for little gain before the process ends. Measured paired, 7 runs
//   each at load 11: a cold scan of the bench tree took 1.49 s of CPU instead of 1.64 s
//   (median; -9 %). A warm scan runs a few hot loops and is better off without it. Only V8 11
//   (Node 20) has the flag: V8 12 (Node 22, 24) dropped it for invocation counts, and prints
//   "unrecognized flag" on stderr instead of throwing, so it is never set there.
import { setFlagsFromString } from "node:v8";

/** V8's major version: 11 on Node 20, 12 on Node 22, 13 on Node 24. */
const V8_MAJOR = Number(process.versions.v8.split(".")[0]);

function setFlag(flag: string): void {
  try {
    setFlagsFromString(flag);
  } catch {
    // a runtime that refuses: V8's default
  }
}

/** Before the first grammar compiles; SPEKY_WASM_TIERUP=1 keeps V8's default. */
export function preferBaselineWasm(): void {
  if (process.env.SPEKY_WASM_TIERUP !== "1") setFlag("--liftoff-only");
}

let lateAllowed = false;

/** The command line's leave (speky scan, speky check): a cold scan of a whole tree may optimize late. */
export function allowLateOptimization(): void {
  lateAllowed = true;
}

// speky:speky-ts#SCAN-SPEED
/** For a scan about to read a whole tree afresh, before its workers start: when allowed. */
export function optimizeLateIfAllowed(): void {
  if (lateAllowed && V8_MAJOR <= 11) setFlag("--interrupt-budget=1048576");
}
