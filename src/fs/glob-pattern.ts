// What a glob pattern names, before any folder is listed: the one rule for the spec loader
// (`files`, `comments_csvs`), the scanner (`code_sources`) and the live watcher (docs/spec-format.md,
// "Which files code_sources reach" and "Confinement"). A pattern is matched against the path
// relative to its root, as Path.glob matches it: `*` and `**` reach dot files and dot folders;
// `.git` is never walked. The walk itself is walker.ts; globs.ts is the way in.

import path from "node:path";
import { quote } from "../quote.js";
import { ALLOW_HINT, allowed, BOUNDARY_WORDS, type Boundary, isVirtual } from "./boundary.js";
import { realOrResolved } from "./paths.js";
import { compileWildcard } from "./wildmatch/wildcard.js";

/** Never walked nor listed. */
export const GIT_DIR = ".git";

export interface GlobProblem {
  severity: "error" | "warning";
  message: string;
}

export interface CompiledGlob {
  /** Leading literal folders, `/`-separated ("" for the root itself). */
  base: string;
  /** The part after the base, matched against paths relative to the base. */
  rest: string;
  /** Deepest file level below the base (1: its own files); Infinity with `**`. */
  maxDepth: number;
  match: (relFromBase: string) => boolean;
  /** Why the pattern may not be walked (too long, too many alternatives): it then matches nothing. */
  refused?: string;
}

const compiled = new Map<string, CompiledGlob | null>();

/** A part with one of these is a wildcard part (or may be: `{a}` and an unclosed `[` match themselves). */
const SPECIAL = /[*?[{\\]/;

// speky:speky-ts#SEC-GLOB-LINEAR
/**
 * null when the pattern has no wildcard (a literal path). Matched by wildmatch/wildcard.ts, in
 * time bounded by name × pattern (picomatch's regular expressions backtracked for seconds on
 * `src/*a*a*a…b`, issue 25); braces `{a,b}` are expanded, a bounded number of them.
 */
export function compileGlob(pattern: string): CompiledGlob | null {
  let glob = compiled.get(pattern);
  if (glob !== undefined) return glob;
  const normal = pattern.replace(/\/{2,}/g, "/").replace(/^\.\//, "");
  glob = null;
  if (SPECIAL.test(normal)) {
    const parts = normal.split("/");
    let literal = 0;
    while (literal < parts.length - 1 && !SPECIAL.test(parts[literal])) literal++;
    const base = parts.slice(0, literal).join("/");
    const rest = parts.slice(literal).join("/");
    const wildcard = compileWildcard(rest, { braces: true });
    glob =
      "refused" in wildcard
        ? { base, rest, maxDepth: 0, match: () => false, refused: wildcard.refused }
        : { base, rest, maxDepth: wildcard.deep ? Infinity : wildcard.parts, match: wildcard.match };
  }
  compiled.set(pattern, glob);
  return glob;
}

/** Whether the file at `abs` is one of the paths `pattern` (relative to `root`) names, without walking. */
export function patternReaches(root: string, pattern: string, abs: string): boolean {
  const glob = compileGlob(pattern);
  if ((glob ? glob.base : pattern).split("/").includes(GIT_DIR)) return false;
  const base = path.resolve(root, glob ? glob.base : pattern);
  if (!glob) return base === abs;
  const rel = path.relative(base, abs);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
  const parts = rel.split(path.sep);
  if (parts.includes(GIT_DIR) || parts.length > glob.maxDepth) return false;
  return glob.match(parts.join("/"));
}

/** Refusal words for a pattern leaving the boundary. */
export function outsideMessage(pattern: string, what: string | null): string {
  const via = what === null ? "" : ` through ${quote(what)}, a link`;
  return `${quote(pattern)} reaches outside ${BOUNDARY_WORDS}${via}: nothing there is read (${ALLOW_HINT})`;
}

// speky:speky-ts#WALK-CONFINE
/**
 * Why a pattern may not be walked at all: where it starts is outside the boundary (or in the
 * kernel's virtual file systems). Told without opening anything; null when it may be walked.
 */
export function confinementProblem(root: string, pattern: string, boundary: Boundary | null): GlobProblem | null {
  const glob = compileGlob(pattern);
  if (glob?.refused) return { severity: "error", message: `${quote(pattern)} ${glob.refused}: refused` };
  const start = path.resolve(root, glob ? glob.base : pattern);
  if (isVirtual(start) || isVirtual(realOrResolved(start))) {
    return { severity: "error", message: `${quote(pattern)} names the kernel's virtual files (/proc, /sys, /dev): refused` };
  }
  if (!allowed(boundary, realOrResolved(start))) return { severity: "error", message: outsideMessage(pattern, null) };
  return null;
}
