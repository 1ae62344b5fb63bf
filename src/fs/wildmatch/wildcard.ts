// Wildcard matching in bounded time: manifest globs (../globs.ts) and .gitignore rules
// (../ignore-rules.ts) come from the repository, so a pattern must not make a match backtrack
// exponentially. A regular expression built from `src/*a*a*a…b` (picomatch's, the `ignore`
// package's) tries every way to share a name among the stars: seconds for one 40-character
// name (issue 25). Here a mismatch restarts only at the latest `*` of the segment (it cannot
// cross a `/`) or, failing that, the latest `**` segment: each restart moves forward, so a
// match costs at most about (name length + 1) × (pattern tokens + 1) steps, whatever both hold.
//
// The syntax is Path.glob's (and gitignore's): `*` any run within one path part, `?` one
// character but `/`, `[abc]`, `[a-z]`, `[!a]`/`[^a]` and `[[:alpha:]]`-style classes, `**` as a
// whole part for any number of parts (`**` elsewhere is `*`), `\x` the character x. Globs of a
// manifest may also hold `{a,b}` alternatives, expanded before matching (bounded in number).

import { expandBraces } from "./braces.js";
import { matches, tokenize } from "./tokens.js";

/** Brace alternatives of one glob, at most. */
export const MAX_GLOB_ALTERNATIVES = 64;
/** Characters of one pattern (a glob, an ignore rule), at most; their tokens summed over the alternatives too. */
export const MAX_GLOB_CHARS = 1024;

export type Wildcard = { match: (name: string) => boolean; deep: boolean; parts: number } | { refused: string };

// speky:speky-ts#SEC-GLOB-LINEAR
/**
 * A pattern compiled for matching whole `/`-separated names (relative paths), or why it is
 * refused: longer than MAX_GLOB_CHARS, or more than MAX_GLOB_ALTERNATIVES brace alternatives
 * (their tokens summed count against MAX_GLOB_CHARS too).
 */
export function compileWildcard(pattern: string, options: { braces: boolean; gitPrefix?: boolean }): Wildcard {
  if (pattern.length > MAX_GLOB_CHARS) {
    return {
      refused: `is too long a pattern (${pattern.length.toLocaleString("en-US")} characters; the limit is ${MAX_GLOB_CHARS.toLocaleString("en-US")})`,
    };
  }
  const alternatives = options.braces ? expandBraces(pattern, MAX_GLOB_ALTERNATIVES) : [pattern];
  if (alternatives === null) return { refused: `has too many brace alternatives (the limit is ${MAX_GLOB_ALTERNATIVES})` };
  const compiled = alternatives.map((alternative) => tokenize(alternative, options.gitPrefix ? alternative.search(/[*?[\\]/) : -1));
  const tokens = compiled.reduce((sum, t) => sum + t.kinds.length, 0);
  if (tokens > MAX_GLOB_CHARS) {
    return {
      refused: `expands to too long a pattern (${tokens.toLocaleString("en-US")} tokens over its alternatives; the limit is ${MAX_GLOB_CHARS.toLocaleString("en-US")})`,
    };
  }
  const deep = compiled.some((t) => t.deep);
  const parts = Math.max(...compiled.map((t) => t.parts));
  if (compiled.length === 1) {
    const only = compiled[0];
    return { match: (name) => matches(only, name), deep, parts };
  }
  return { match: (name) => compiled.some((t) => matches(t, name)), deep, parts };
}
