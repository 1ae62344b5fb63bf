// The one opt-in shortcut off Node's public API: a stamp (stamp.ts) from the binding fs.statSync
// itself calls, without the Stats object it builds for each call (twenty fields and four
// Dates). A warm scan stats every cached file; in a fresh process statSync's own code costs
// about as much as the system call. The command line asks for it (useFastStat, for
// `speky scan` and `speky check`); a server never does. Chosen only where the binding answers
// as statSync does (checked once, on this module's own file and folder), never on Windows nor
// when deprecation warnings are asked for (process.binding is deprecated: DEP0111); else
// statSync. Measured gain: see docs/security.md "The scan cache" and README "Speed".
import { fileURLToPath } from "node:url";
import { type Kind, type Stamper, statSyncStamp, useStamper } from "./stamp.js";

type Binding = (path: string, bigint: false, req: undefined, throwIfNoEntry: false) => Float64Array | undefined;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
// fs.statSync's order of the binding's numbers (lib/internal/fs/utils.js getStatsFromBinding).
const MODE = 1;
const SIZE = 8;
const MTIME_S = 12;
const CTIME_S = 14;

/** Node's own arithmetic (msFromTimeSpec): the same doubles as Stats.mtimeMs. */
const ms = (sec: number, nsec: number) => sec * 1e3 + nsec / 1e6;

function fromBinding(stat: Binding): Stamper {
  return (path, out, at): Kind => {
    let v: ReturnType<Binding>;
    try {
      v = stat(path, false, undefined, false);
    } catch {
      return "missing";
    }
    if (v === undefined) return "missing";
    out[at] = v[SIZE];
    out[at + 1] = ms(v[MTIME_S], v[MTIME_S + 1]);
    out[at + 2] = ms(v[CTIME_S], v[CTIME_S + 1]);
    const type = v[MODE] & S_IFMT;
    return type === S_IFREG ? "file" : type === S_IFDIR ? "directory" : "other";
  };
}

/** The binding's stamp when it answers as statSync on a file, a folder and a missing path, else null. */
export function bindingStamper(): Stamper | null {
  if (
    process.platform === "win32" ||
    process.execArgv.includes("--pending-deprecation") ||
    /--pending-deprecation/.test(process.env.NODE_OPTIONS ?? "")
  )
    return null;
  try {
    const binding = (process as unknown as { binding(name: string): { stat?: Binding } }).binding("fs");
    const stat = binding.stat?.bind(binding);
    if (typeof stat !== "function") return null;
    const here = fileURLToPath(import.meta.url);
    const probe = fromBinding(stat);
    for (const path of [here, fileURLToPath(new URL(".", import.meta.url))]) {
      const a = new Float64Array(3);
      const b = new Float64Array(3);
      if (probe(path, a, 0) !== statSyncStamp(path, b, 0) || a.some((n, i) => n !== b[i])) return null;
    }
    if (stat(`${here}.missing`, false, undefined, false) !== undefined) return null;
    return probe;
  } catch {
    return null;
  }
}

// speky:speky-ts#SCAN-FAST-STAT
/** For the rest of this process, stamps from the binding where it answers as statSync (a command line's choice). */
export function useFastStat(): void {
  const fast = bindingStamper();
  if (fast) useStamper(fast);
}
