// A path's stamp (size, mtimeMs, ctimeMs, following links) written into a Float64Array, and
// what the path is: what a warm scan compares with the cache for every folder and file. Public
// Node APIs (fs.statSync); a faster way may be chosen by the command line (fast-stat.ts), never
// by a server.
import { statSync } from "node:fs";

/**
 * What a path is, as statSync tells (following links). A path that cannot be stat'ed at all
 * (under a file: ENOTDIR, a link loop: ELOOP, no permission) is missing: where a tree changed
 * so, the caller reads anew, or reports, what is there.
 */
export type Kind = "missing" | "file" | "directory" | "other";

/** Stats `path` into out[at..at+2] unless missing; what it is. */
export type Stamper = (path: string, out: Float64Array, at: number) => Kind;

/** fs.statSync's stamp. */
export const statSyncStamp: Stamper = (path, out, at) => {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return "missing";
  }
  if (st === undefined) return "missing";
  out[at] = st.size;
  out[at + 1] = st.mtimeMs;
  out[at + 2] = st.ctimeMs;
  return st.isFile() ? "file" : st.isDirectory() ? "directory" : "other";
};

let chosen: Stamper = statSyncStamp;

/** Stats `path` (following links) into out[at..at+2] unless missing; what it is. */
export function statStamp(path: string, out: Float64Array, at: number): Kind {
  return chosen(path, out, at);
}

/** The way statStamp stats from now on, for this process (fast-stat.ts). */
export function useStamper(stamper: Stamper): void {
  chosen = stamper;
}
