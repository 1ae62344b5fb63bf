// Wildcard matching in bounded time: manifest globs (globs.ts) and .gitignore rules
// (ignore-rules.ts) come from the repository, so a pattern must not make a match backtrack
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

const SLASH = 47;
const LITERAL = 0;
const ONE = 1;
const CLASS = 2;
const STAR = 3;
/** `**` followed by `/`: zero or more whole parts. */
const GLOBSTAR = 4;
/** `**` ending the pattern: whatever remains. */
const REST = 5;

/** Brace alternatives of one glob, at most. */
export const MAX_GLOB_ALTERNATIVES = 64;
/** Characters of one pattern (a glob, an ignore rule), at most; their tokens summed over the alternatives too. */
export const MAX_GLOB_CHARS = 1024;

interface CharClass {
  negated: boolean;
  /** Inclusive code ranges, two numbers each. */
  ranges: number[];
  named: ((c: number) => boolean)[];
}

/** One alternative, compiled: parallel arrays, no object per token. */
interface Tokens {
  kinds: Uint8Array;
  codes: Int32Array;
  classes: (CharClass | undefined)[];
  /** Characters the tokens from each position on need at least: a restart that leaves fewer is futile. */
  needs: Int32Array;
  /** Past the last `**` part, no token can match a `/`: that `**` then ends at the name's last `/`. */
  lastGlobstar: number;
  tailSlashFree: boolean;
  /** Holds a `**` part: may reach any depth. */
  deep: boolean;
  /** Parts it spans ("a/*" 2): the deepest a file may be without `**`. */
  parts: number;
}

export type Wildcard = { match: (name: string) => boolean; deep: boolean; parts: number } | { refused: string };

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const isGraph = (c: number) => c > 32 && c < 127;
const NAMED: Record<string, (c: number) => boolean> = {
  alnum: (c) => isDigit(c) || isUpper(c) || isLower(c),
  alpha: (c) => isUpper(c) || isLower(c),
  blank: (c) => c === 32 || c === 9,
  cntrl: (c) => c < 32 || c === 127,
  digit: isDigit,
  graph: isGraph,
  lower: isLower,
  print: (c) => c === 32 || isGraph(c),
  punct: (c) => isGraph(c) && !isDigit(c) && !isUpper(c) && !isLower(c),
  space: isSpace,
  upper: isUpper,
  xdigit: (c) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102),
};

/** The class opening at `p[i] === "["`, and where it ends; null: not a class (a plain `[`). */
function parseClass(p: string, i: number): { cls: CharClass; end: number } | null {
  let j = i + 1;
  const cls: CharClass = { negated: false, ranges: [], named: [] };
  if (p[j] === "!" || p[j] === "^") {
    cls.negated = true;
    j++;
  }
  for (let first = true; j < p.length; first = false) {
    let c = p.charCodeAt(j);
    if (c === 93 /* ] */ && !first) return { cls, end: j + 1 };
    if (c === 91 /* [ */ && p[j + 1] === ":") {
      const close = p.indexOf(":]", j + 2);
      const test = close < 0 ? undefined : NAMED[p.slice(j + 2, close)];
      if (test) {
        cls.named.push(test);
        j = close + 2;
        continue;
      }
    }
    if (c === 92 /* \ */ && j + 1 < p.length) c = p.charCodeAt(++j);
    if (c === SLASH) return null;
    let hi = c;
    if (p[j + 1] === "-" && j + 2 < p.length && p[j + 2] !== "]") {
      j += 2;
      if (p.charCodeAt(j) === 92 && j + 1 < p.length) j++;
      hi = p.charCodeAt(j);
    }
    cls.ranges.push(c, hi);
    j++;
  }
  return null;
}

function inClass(cls: CharClass, c: number): boolean {
  let hit = false;
  for (let r = 0; r < cls.ranges.length && !hit; r += 2) hit = c >= cls.ranges[r] && c <= cls.ranges[r + 1];
  for (let k = 0; k < cls.named.length && !hit; k++) hit = cls.named[k](c);
  return hit !== cls.negated;
}

/**
 * `gitPrefix`: for an ignore rule with a `/`, where its literal start ends. Git compares that
 * start apart and matches the remainder as a pattern of its own, so a `**` right there is a
 * whole-part `**` too (`a**` then `/b` reaches `a/x/y/b`; `a**b` is `a*b`): git's own reading.
 */
function tokenize(p: string, gitPrefix: number): Tokens {
  const kinds: number[] = [];
  const codes: number[] = [];
  const classes: (CharClass | undefined)[] = [];
  const push = (kind: number, code = 0, cls?: CharClass) => {
    kinds.push(kind);
    codes.push(code);
    classes.push(cls);
  };
  let deep = false;
  let parts = 1;
  let i = 0;
  while (i < p.length) {
    const c = p.charCodeAt(i);
    if (c === 42 /* * */) {
      const from = i;
      while (p.charCodeAt(i) === 42) i++;
      const whole = (from === 0 || p.charCodeAt(from - 1) === SLASH || from === gitPrefix) && (i === p.length || p.charCodeAt(i) === SLASH);
      if (i - from < 2 || !whole) {
        push(STAR);
      } else if (i === p.length) {
        push(REST);
        deep = true;
      } else {
        // `**/**/` is one `**/`.
        if (kinds[kinds.length - 1] !== GLOBSTAR) push(GLOBSTAR);
        deep = true;
        i++;
      }
    } else if (c === 63 /* ? */) {
      push(ONE);
      i++;
    } else if (c === 91 /* [ */) {
      const parsed = parseClass(p, i);
      if (parsed) {
        push(CLASS, 0, parsed.cls);
        i = parsed.end;
      } else {
        push(LITERAL, c);
        i++;
      }
    } else if (c === 92 /* \ */ && i + 1 < p.length) {
      push(LITERAL, p.charCodeAt(i + 1));
      if (p.charCodeAt(i + 1) === SLASH) parts++;
      i += 2;
    } else {
      if (c === SLASH) parts++;
      push(LITERAL, c);
      i++;
    }
  }
  const needs = new Int32Array(kinds.length + 1);
  for (let k = kinds.length - 1; k >= 0; k--) needs[k] = needs[k + 1] + (kinds[k] <= CLASS ? 1 : 0);
  const lastGlobstar = kinds.lastIndexOf(GLOBSTAR);
  let tailSlashFree = lastGlobstar >= 0;
  for (let k = lastGlobstar + 1; k < kinds.length && tailSlashFree; k++) tailSlashFree = !(kinds[k] === LITERAL && codes[k] === SLASH);
  return { kinds: Uint8Array.from(kinds), codes: Int32Array.from(codes), classes, needs, lastGlobstar, tailSlashFree, deep, parts };
}

/**
 * Whether `name` matches, restarting a mismatch at the latest `*` of the current part (which may
 * absorb one more character, never a `/`) or else the latest `**` part (which may absorb one
 * more whole part): a match found with the latest restart points is found without the earlier.
 */
function matches(t: Tokens, name: string): boolean {
  const { kinds, codes, classes, needs } = t;
  const m = kinds.length;
  const n = name.length;
  if (needs[0] > n) return false;
  let px = 0;
  let nx = 0;
  let starPx = -1;
  let starNx = 0;
  /** The latest `**` (a part, or a deep star): restarted when the latest star cannot be. */
  let globPx = -1;
  let globNx = 0;

  for (;;) {
    if (px < m) {
      const k = kinds[px];
      if (k === STAR) {
        starPx = px++;
        starNx = nx + 1;
        continue;
      }
      if (k === GLOBSTAR) {
        starPx = -1;
        if (px === t.lastGlobstar && t.tailSlashFree) {
          // `**/*.ts`: what follows matches the last part or nothing, so no restart is needed.
          const last = name.lastIndexOf("/");
          if (last >= nx) nx = last + 1;
          globPx = -1;
          px++;
          continue;
        }
        globPx = px++;
        globNx = nx;
        continue;
      }
      if (k === REST) return true;
      if (nx < n) {
        const c = name.charCodeAt(nx);
        if (k === LITERAL ? c === codes[px] : c !== SLASH && (k === ONE || inClass(classes[px]!, c))) {
          px++;
          nx++;
          continue;
        }
      }
    } else if (nx === n) {
      return true;
    }
    if (starPx >= 0 && n - starNx >= needs[starPx + 1] && name.charCodeAt(starNx - 1) !== SLASH) {
      px = starPx + 1;
      nx = starNx++;
      continue;
    }
    starPx = -1;
    if (globPx >= 0) {
      const slash = name.indexOf("/", globNx);
      if (slash >= 0 && n - slash - 1 >= needs[globPx + 1]) {
        globNx = slash + 1;
        px = globPx + 1;
        nx = globNx;
        continue;
      }
    }
    return false;
  }
}

/** Brace alternatives of `p` (`a{b,c{d,e}}` → ab acd ace), or null past `limit`. */
function expandBraces(p: string, limit: number): string[] | null {
  const out: string[] = [];
  const expand = (s: string): boolean => {
    let open = -1;
    let depth = 0;
    const commas: number[] = [];
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") i++;
      else if (c === "{") {
        if (depth++ === 0) {
          open = i;
          commas.length = 0;
        }
      } else if (c === "}" && depth > 0) {
        if (--depth === 0 && commas.length > 0) {
          const head = s.slice(0, open);
          const tail = s.slice(i + 1);
          const cuts = [open, ...commas, i];
          for (let k = 0; k + 1 < cuts.length; k++) if (!expand(head + s.slice(cuts[k] + 1, cuts[k + 1]) + tail)) return false;
          return true;
        }
      } else if (c === "," && depth === 1) commas.push(i);
    }
    out.push(s);
    return out.length <= limit;
  };
  return expand(p) ? out : null;
}

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
