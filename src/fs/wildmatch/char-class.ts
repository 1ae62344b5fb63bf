// Character classes of a wildcard (`[abc]`, `[a-z]`, `[!a]`/`[^a]`, `[[:alpha:]]`): read and
// tested by tokens.ts. The syntax as a whole: wildcard.ts.

/** The character code of `/`. */
export const SLASH = 47;

export interface CharClass {
  negated: boolean;
  /** Inclusive code ranges, two numbers each. */
  ranges: number[];
  named: ((c: number) => boolean)[];
}

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
export function parseClass(p: string, i: number): { cls: CharClass; end: number } | null {
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

export function inClass(cls: CharClass, c: number): boolean {
  let hit = false;
  for (let r = 0; r < cls.ranges.length && !hit; r += 2) hit = c >= cls.ranges[r] && c <= cls.ranges[r + 1];
  for (let k = 0; k < cls.named.length && !hit; k++) hit = cls.named[k](c);
  return hit !== cls.negated;
}
