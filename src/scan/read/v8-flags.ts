// The scan's only V8 flags, process-wide through v8.setFlagsFromString before the code they tune
// first runs: both for the command line and speky-mcp, the second only while a cold scan reads.
//
// - Baseline wasm only (BASELINE_WASM), set before the first grammar compiles: the optimising
//   tier recompiles the big grammars (TypeScript's is 2.3 MB of wasm) in the background for
//   ~0.7 s of CPU, and a process or worker can't exit before that is done: a pre-commit check
//   that parsed one .ts file took 1.0 s instead of 0.35 s. speky-mcp too (its first scan; see
//   commands/mcp.ts); speky lsp keeps V8's default (it sets SPEKY_WASM_TIERUP=1, as a user may:
//   it parses on its own thread at each keystroke for as long as the editor runs).
// - Later optimization while a cold scan reads a whole tree, when the process allowed it
//   (allowLateOptimization: the command line and speky-mcp): three isolates then recompile less
//   of the scanner on two cores for little gain. V8 11 (Node 20): its interrupt budget 67,584 ->
//   1,048,576; measured paired, 7 runs each at load 11, a cold scan of the bench tree took 1.49 s
//   of CPU instead of 1.64 s (median; -9 %). V8 12 and 13 (Node 22, 24) dropped that flag for
//   invocation counts (and print "unrecognized flag" on stderr for it instead of throwing, so it
//   is not set there): 8x the counts for Maglev and TurboFan; measured paired, 15 rounds at load
//   2.4-3.2, 1.34 -> 1.23 s of CPU on Node 22 (-8 %), 1.31 -> 1.25 on Node 24 (-5 %), and 11
//   rounds before those the same way. speky-mcp's first scan, paired on the bench tree (Node 20,
//   7 rounds twice, load 1.2-2.2): spawn -> first code reference 1,191 -> 1,076 and 1,089 ->
//   1,009 ms, CPU 1,930 -> 1,754 ms; on the MCP bench's 10,000 requirements and 50,000 tags 3,408
//   -> 3,333 ms. Once that scan is done V8's defaults are set again: a server goes on, and its
//   tools' small loops stayed slower with the late flags (an unknown ID's answer 1.2-1.9 ms ->
//   2.4-2.8, p50 of 300 calls). A warm scan runs a few hot loops and is better off without them.
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

/**
 * --liftoff-only and the two flags it implies, each set: V8 applies a flag's implications when
 * it reads the command line, and V8 13 (Node 24) no longer when a flag is set at run time.
 * There --liftoff-only alone left dynamic tier-up on, and a pre-commit check of 10 files took
 * 0.54-0.56 s instead of 0.15-0.18 (the process waiting at exit for the optimising tier's jobs)
 * and a cold scan of the bench tree 1,101 ms and 731 MB instead of 799 ms and 185 MB (paired,
 * 5 rounds, medians); Node 20 and 22 as before. test/pipeline/baseline-wasm.test.ts asks V8
 * which tier a hot function ends in.
 */
const BASELINE_WASM = ["--liftoff-only", "--no-wasm-tier-up", "--no-wasm-dynamic-tiering"];

// speky:speky-ts#SCAN-BASELINE-WASM
/** Before the first grammar compiles; SPEKY_WASM_TIERUP=1 keeps V8's default. */
export function preferBaselineWasm(): void {
  if (process.env.SPEKY_WASM_TIERUP !== "1") for (const flag of BASELINE_WASM) setFlag(flag);
}

let lateAllowed = false;

/** The command line's and speky-mcp's: a cold scan of a whole tree may optimize late. */
export function allowLateOptimization(): void {
  lateAllowed = true;
}

/**
 * The late flags, and V8's defaults of the same flags (`node --v8-options`, checked on each Node
 * CI runs by test/pipeline/v8-flags.test.ts), set again when no such scan runs any longer.
 */
export const OPTIMIZATION_FLAGS =
  V8_MAJOR <= 11
    ? { late: ["--interrupt-budget=1048576"], usual: ["--interrupt-budget=67584"] }
    : {
        late: ["--invocation-count-for-maglev=3200", "--invocation-count-for-turbofan=24000"],
        usual: ["--invocation-count-for-maglev=400", "--invocation-count-for-turbofan=3000"],
      };

/** Scans reading a whole tree afresh with the late flags, now (a server may run two). */
let lateScans = 0;

// speky:speky-ts#SCAN-SPEED
/**
 * For a scan about to read a whole tree afresh, before its workers start: the late flags, when
 * allowed. Returns what the scan calls once done (more calls do nothing): V8's defaults again
 * when it was the last such scan.
 */
export function optimizeLateIfAllowed(): () => void {
  if (!lateAllowed) return () => {};
  if (lateScans++ === 0) for (const flag of OPTIMIZATION_FLAGS.late) setFlag(flag);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--lateScans === 0) for (const flag of OPTIMIZATION_FLAGS.usual) setFlag(flag);
  };
}
