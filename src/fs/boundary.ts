// The confinement boundary (docs/spec-format.md, "Confinement"): the folders a specification tree
// may name. A repository can be hostile; its manifest must not make us read /etc, /proc or the
// user's home through a glob, a root_directory or a symbolic link.
import fs from "node:fs";
import path from "node:path";

/** Real paths of the folders (or files) inside which everything may be opened. */
export interface Boundary {
  readonly roots: readonly string[];
}

/** Words for diagnostics: never an absolute path (displayed paths stay relative). */
export const BOUNDARY_WORDS = "the project (the git work tree of the manifest, or the manifest's folder outside git)";
export const ALLOW_HINT = "--allow-outside lifts this for a trusted tree";

/** The kernel's virtual file systems: endless files, and other processes' secrets. */
const VIRTUAL = ["/proc", "/sys", "/dev"];

import { realOrResolved, withTrailingSep } from "./paths.js";

/** The deepest folder holding `dir` (itself included) that has a `.git` entry, or null. */
export function gitWorkTree(dir: string): string | null {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, ".git"))) return d;
    if (d === path.dirname(d)) return null;
  }
}

// speky:speky-ts#WALK-CONFINE
// speky:speky-ts#SEC-BOUNDARY-CWD
/**
 * The boundary of a path given on the command line: the git work tree holding it, else the
 * path's own folder (a manifest's or spec file's folder, or the folder named) and what is
 * below it. Never the working directory: MCP hosts start servers from the home folder or `/`,
 * and a manifest outside git saying `root_directory: ../..` must not reach it. The path itself
 * is always allowed (it is the user's own choice).
 */
export function boundaryFor(givenAbs: string): Boundary {
  const real = realOrResolved(givenAbs);
  let dir = real;
  try {
    if (!fs.statSync(real).isDirectory()) dir = path.dirname(real);
  } catch {
    dir = path.dirname(real);
  }
  const tree = gitWorkTree(dir);
  const roots = [...new Set([tree ?? dir, real])];
  return { roots: roots.filter((r) => !roots.some((o) => o !== r && within(r, o))) };
}

// speky:speky-ts#SEC-RESULTS-LINKS
/**
 * The boundary of a path the command line gives relative to the working folder (a `--results`
 * glob's start): the folders below the working folder are the repository's, so a link among
 * them never decides the boundary. Its leading `..` parts and an absolute path are the user's
 * own (as boundaryFor). Without a link on the way, boundaryFor's answer; with one, the git work
 * tree holding the part before the link, else the path as written (which holds no real file: a
 * link there leaves it). Checked, like every path, on the real path of what is reached.
 */
export function boundaryForRelative(cwd: string, given: string): Boundary {
  const lexical = path.resolve(cwd, given);
  if (path.isAbsolute(given)) return boundaryFor(lexical);
  const parts = path.relative(cwd, lexical).split(path.sep);
  let ups = 0;
  while (parts[ups] === "..") ups++;
  let q = realOrResolved(path.resolve(cwd, ...parts.slice(0, ups)));
  for (let i = ups; i < parts.length; i++) {
    const next = path.join(q, parts[i]);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(next, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st === undefined) break;
    if (st.isSymbolicLink()) return { roots: [gitWorkTree(q) ?? path.join(q, ...parts.slice(i))] };
    q = next;
  }
  return boundaryFor(lexical);
}

/** `p` is `root` or below it (both absolute, normalised). */
export function within(p: string, root: string): boolean {
  if (p === root) return true;
  return p.startsWith(withTrailingSep(root));
}

/** Whether a real path may be opened; a null boundary allows everything (--allow-outside). */
export function allowed(boundary: Boundary | null, realPath: string): boolean {
  return boundary === null || boundary.roots.some((r) => within(realPath, r));
}

/** Under /proc, /sys or /dev: refused even with --allow-outside, a walk there never ends well. */
export function isVirtual(absPath: string): boolean {
  return VIRTUAL.some((v) => within(absPath, v));
}
