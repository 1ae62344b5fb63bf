// Paths as the project shows and compares them: one way each, shared by every stage.
import fs from "node:fs";
import path from "node:path";

/** A path of this system with `/` separators, as every output and the cache write paths. */
export function toPosix(p: string): string {
  return path.sep === "/" ? p : p.split(path.sep).join("/");
}

/** `dir` with one separator at its end (as given when it has one): a prefix of the paths under it. */
export function withTrailingSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** The real path (links resolved), or null when there is none (missing, a loop, no access). */
export function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/** The real path, or the path itself made absolute when it has none. */
export function realOrResolved(p: string): string {
  return realOrNull(p) ?? path.resolve(p);
}

/** A path's stat through links: undefined when nothing is there, null when something is that can't be followed (ELOOP and the like). */
export function statThrough(p: string): fs.Stats | undefined | null {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return null;
  }
}
