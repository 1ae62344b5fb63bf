// What a glob reaches: the one rule for the spec loader (`files`, `comments_csvs`), the
// scanner (`code_sources`, command-line folders) and the live watcher (docs/spec-format.md,
// "Which files code_sources reach" and "Confinement"). The way in; the parts, each its own
// module, data flowing one way:
//
// - glob-pattern.ts: what a pattern names and where it may start, before anything is listed;
// - walker.ts: the GlobWalker, which expands patterns, asking a filter (WalkFilter) first;
// - tree-walk.ts: one walk from a start folder;
// - walk-types.ts: the shapes they share, and the filter's.

import type { GlobOptions, GlobOutcome } from "./walk-types.js";
import { GlobWalker } from "./walker.js";

export type { GlobProblem } from "./glob-pattern.js";
export { compileGlob, confinementProblem, GIT_DIR, patternReaches } from "./glob-pattern.js";
export type { DirStamp, GlobOptions, GlobOutcome, Reached, RememberedWalk, WalkFilter, WalkRecord, WalkSetup } from "./walk-types.js";
export { MISSING_STAMP } from "./walk-types.js";
export { GlobWalker } from "./walker.js";

/** All of one pattern's files, or its problems: the convenience form for a single expansion. */
export function expandGlob(root: string, pattern: string, options: GlobOptions): Promise<GlobOutcome> {
  return new GlobWalker().expand(root, pattern, options);
}
