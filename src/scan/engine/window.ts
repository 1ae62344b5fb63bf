// Where a parse of a tagged file may start instead of the file's start (prefix.ts parses from
// there with web-tree-sitter's included ranges, which keep the file's positions). Found from
// the text alone, cheaply and conservatively: a wrong start makes the parse's answer differ
// from the whole file's, so prefix.ts keeps it only when its tree is clean before the tags,
// and test/scan/scan-prefix.test.ts compares both on real files.
//
// - The window: from the start of the nearest line before the first tag that begins a
//   top-level statement (at depth 0, after a blank line or, with braces, a line that closes a
//   block or ends a statement), when everything opened before it is closed. The tags' top-level definitions are then whole in it, with
//   every scope enclosing them.
// - A tag inside a block (a method in its class): the window is cut in two, the block's header
//   (from the top-level start to its `{`, or a Python class's `:`) and the block's members from
//   the nearest member start before the tag on: the members between are skipped.
import type { Range } from "web-tree-sitter";

export type Mode = "braces" | "offside";

/**
 * A line a statement of its own can start: first characters that continue an expression
 * (`.bar()`, `+ x`, `)`) or, in an offside language, a comment (Python's body may go on after
 * one written further left) or a string are left out.
 */
export const STARTS = { braces: /^[A-Za-z_$@#}]|^\/[/*]/, offside: /^[A-Za-z_@]/ } as const;

const WINDOW_STARTS = { braces: /^[A-Za-z_$@#]|^\/[/*]/, offside: STARTS.offside } as const;

/** Candidate starts tried, nearest first, before giving up on a window. */
const START_TRIES = 8;

const count = (text: string, what: string) => {
  let n = 0;
  for (let i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length)) n++;
  return n;
};
const countAll = (text: string, chars: string) => [...chars].reduce((n, c) => n + count(text, c), 0);

/** Python: brackets balanced and no triple-quoted string open, counted naively. */
function closedOffside(before: string): boolean {
  return countAll(before, "([{") === countAll(before, ")]}") && count(before, '"""') % 2 === 0 && count(before, "'''") % 2 === 0;
}

/** What the braces lexer knows at the start of a line. */
interface LineState {
  start: number;
  /** Open `{`, innermost last; null inside a comment, a string or a template literal. */
  open: number[] | null;
  /** `#if` lines not closed by an `#endif` yet. */
  conditionals: number;
}

const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const NEWLINE = 10;
const QUOTES = new Set([34, 39, 96]); // " ' `
const HASH = 35;
/** A run of characters the braces lexer passes over (sticky: it matches at lastIndex, maybe empty). */
const ORDINARY = /[^\n/"'`{}]*/y;

/** The index of the first character from `i` on that is not a space or a tab. */
function firstNonBlank(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
  return j;
}

/**
 * The state at every line start up to `to`, from a lexer that knows just enough of the C
 * family: line and block comments, strings and character literals (a quote not closed on its
 * line is taken for a Rust lifetime or prose and skipped), template literals and raw strings
 * in backquotes, Java's text blocks, braces, and `#if`/`#endif` lines.
 */
function braceStates(text: string, to: number): LineState[] {
  const states: LineState[] = [];
  const open: number[] = [];
  let conditionals = 0;
  let lineStart = true;
  let i = 0;
  // Hostile text (a line of `'\'\'...`, thousands of nested braces) must not make this
  // quadratic: past this much scanning, no window.
  let budget = 8 * to + 65_536;
  // The open braces as the last line start saw them, shared by the lines after it until a
  // brace opens or closes (states are read, never written): no copy per line.
  let shared: number[] | null = null;
  /** The index after the literal opened at `i`, `i + 1` when it is none, -1 when it does not close before `to`. */
  const literalEnd = (quote: number): number => {
    if (quote === 34 && text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      return end < 0 ? -1 : end + 3;
    }
    for (let j = i + 1; j < to; j++) {
      const c = text.charCodeAt(j);
      if (c === BACKSLASH) j++;
      else if (c === quote) return (budget -= j - i) < 0 ? -1 : j + 1;
      else if (c === NEWLINE && quote !== 96) return (budget -= j - i) < 0 ? -1 : i + 1;
    }
    return -1;
  };
  while (i < to) {
    if (lineStart) {
      if ((budget -= open.length) < 0) break;
      shared ??= [...open];
      states.push({ start: i, open: shared, conditionals });
      lineStart = false;
      if (text.charCodeAt(firstNonBlank(text, i)) === HASH) {
        const directive = /^[ \t]*#[ \t]*(if|endif)/.exec(text.slice(i, i + 40));
        if (directive) conditionals += directive[1] === "if" ? 1 : -1;
      }
    }
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      lineStart = true;
      i++;
    } else if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? to : end;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0 || end + 2 > to) break;
      i = inner(i, end + 2);
    } else if (QUOTES.has(c)) {
      const end = literalEnd(c);
      if (end < 0 || end > to) break;
      i = end === i + 1 ? end : inner(i, end);
    } else {
      if (c === 123) {
        open.push(i);
        shared = null;
      } else if (c === 125) {
        open.pop();
        shared = null;
      }
      // To the next character this lexer acts on, in one native search (none past the text's end:
      // `to` may lie beyond it).
      ORDINARY.lastIndex = i + 1;
      i = ORDINARY.test(text) ? ORDINARY.lastIndex : to;
    }
  }
  return states;

  /** Lines starting inside a comment or literal that runs from `from` to `end`. */
  function inner(from: number, end: number): number {
    for (let nl = text.indexOf("\n", from); nl >= 0 && nl < end; nl = text.indexOf("\n", nl + 1)) {
      states.push({ start: nl + 1, open: null, conditionals });
    }
    if (text.charCodeAt(end - 1) === NEWLINE) lineStart = true;
    return end;
  }
}

/** The start of the line holding `index`. */
const lineStartOf = (text: string, index: number) => (index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1);

/** The line starting at `start`, without its newline. */
function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end < 0 ? text.length : end);
}

/** The start of the line before the one starting at `start` (> 0). */
const previousLine = (text: string, start: number) => (start < 2 ? 0 : text.lastIndexOf("\n", start - 2) + 1);

/** The line before the one starting at `start`, trimmed at its end. */
function lineAbove(text: string, start: number): string {
  return text.slice(previousLine(text, start), Math.max(0, start - 1)).trimEnd();
}

/**
 * A line that may start a window: a statement start after a blank line or, with braces, after
 * a line that closes a block or ends a statement (compiled JavaScript has no blank lines).
 */
function startsAfterBreak(text: string, start: number, mode: Mode): boolean {
  if (!WINDOW_STARTS[mode].test(lineAt(text, start).trimStart())) return false;
  const above = lineAbove(text, start).trimStart();
  return above === "" || (mode === "braces" && (above.startsWith("}") || above.endsWith(";")));
}

function offsideStart(text: string, first: number): number {
  let tries = 0;
  for (let at = lineStartOf(text, first); at > 0 && tries < START_TRIES; ) {
    const start = previousLine(text, at);
    const line = text.slice(start, at - 1);
    if (STARTS.offside.test(line) && startsAfterBreak(text, start, "offside")) {
      if (closedOffside(text.slice(0, start))) return start;
      tries++;
    }
    at = start;
  }
  return 0;
}

/** The start of the line after the one holding `index`; -1 at the text's end. */
const nextLine = (text: string, index: number) => {
  const nl = text.indexOf("\n", index);
  return nl < 0 ? -1 : nl + 1;
};

/**
 * Python, a tag in a class's body: [class start, header end, member start], the members
 * between skipped, when the header is found and the member start is at the body's depth after a
 * blank line with everything before it closed; not when a skipped member's name matches
 * `keep` (a test rule reading the class's other members: pytest's `__init__`).
 */
function offsideNested(text: string, top: number, first: number, keep: RegExp | undefined): number[] {
  let at = top;
  while (text.startsWith("@", at)) at = nextLine(text, at);
  if (at < 0 || !/^class\s/.test(text.slice(at, at + 6))) return [top];
  let end = at;
  let depth = 0;
  for (;;) {
    const next = nextLine(text, end);
    if (next < 0 || next > first) return [top];
    const line = text
      .slice(end, next - 1)
      .replace(/#.*$/, "")
      .trimEnd();
    depth += countAll(line, "([{") - countAll(line, ")]}");
    end = next;
    if (depth > 0) continue;
    if (depth < 0 || !line.endsWith(":")) return [top];
    break;
  }
  const tagLine = lineStartOf(text, first);
  let body = -1;
  for (let l = end; l >= 0 && l <= tagLine; l = nextLine(text, l)) {
    const line = lineAt(text, l);
    if (line.trim() !== "") {
      body = line.length - line.trimStart().length;
      break;
    }
  }
  if (body <= 0) return [top];
  let tries = 0;
  for (let m = tagLine; m > end && tries < START_TRIES; m = previousLine(text, m)) {
    const line = lineAt(text, m);
    if (line.length - line.trimStart().length !== body || !/^[A-Za-z_@#]/.test(line.trimStart()) || lineAbove(text, m).trim() !== "")
      continue;
    const skipped = text.slice(end, m);
    if (closedOffside(skipped) && ![...skipped.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)/gm)].some((d) => keep?.test(d[1])))
      return [top, end, m];
    tries++;
  }
  return [top];
}

function sameOpen(a: number[] | null, b: number[]): boolean {
  return a !== null && a.length === b.length && a.every((x, k) => x === b[k]);
}

/** Ranges of a braces file's window: [top-level start, tag line) or two pieces (see above). */
function bracesWindow(text: string, first: number, nested: boolean): number[] | null {
  const tagLine = lineStartOf(text, first);
  const states = braceStates(text, tagLine + 1);
  const atTag = states[states.length - 1];
  if (!atTag || atTag.start !== tagLine || !atTag.open) return null;
  let top = -1;
  let tries = 0;
  for (let k = states.length - 1; k >= 0 && tries < START_TRIES; k--) {
    const s = states[k];
    if (s.open?.length !== 0 || s.start === 0 || !startsAfterBreak(text, s.start, "braces")) continue;
    if (s.conditionals === 0) {
      top = k;
      break;
    }
    tries++;
  }
  if (top < 0) return null;
  const start = states[top].start;
  const block = atTag.open.at(-1);
  if (!nested || block === undefined) return [start];
  // The nearest member start of the tag's own block, no `#if` opened since the top level.
  for (let k = states.length - 1; k > top && states[k].start > block; k--) {
    const s = states[k];
    if (sameOpen(s.open, atTag.open) && s.conditionals === states[top].conditionals && startsAfterBreak(text, s.start, "braces")) {
      return [start, block + 1, s.start];
    }
  }
  return [start];
}

// speky:speky-ts#SCAN-WINDOW
/**
 * Where a parse may start, as the points of its included ranges: [start] (one window to the
 * cut) or [start, headerEnd, membersStart]; null: from the file's start. `barrier` (a language
 * row's windowBarrier) refuses any window after a line it matches; `keep` (a test rule's
 * notWithMember): with braces, no members are skipped; in Python, none whose name it matches.
 */
export function windowPoints(
  text: string,
  first: number,
  mode: Mode,
  barrier: string | undefined,
  keep: RegExp | undefined,
): number[] | null {
  const top = mode === "offside" ? offsideStart(text, first) : 0;
  const points = mode === "offside" ? (top > 0 ? offsideNested(text, top, first, keep) : [0]) : bracesWindow(text, first, !keep);
  if (!points || points[0] <= 0) return null;
  if (barrier && new RegExp(barrier, "m").test(text.slice(0, points[0]))) return null;
  return points;
}

/** Rows before `index`. */
const rowOf = (text: string, index: number) => count(text.slice(0, index), "\n");

const point = (text: string, index: number) => ({ row: rowOf(text, index), column: index - lineStartOf(text, index) });

/** The included ranges of a window given by windowPoints, up to the end of `prefix`. */
export function windowRanges(prefix: string, points: number[]): Range[] {
  const bounds = [...points, prefix.length];
  const ranges: Range[] = [];
  for (let k = 0; k + 1 < bounds.length; k += 2) {
    const [startIndex, endIndex] = [bounds[k], bounds[k + 1]];
    ranges.push({ startIndex, endIndex, startPosition: point(prefix, startIndex), endPosition: point(prefix, endIndex) });
  }
  return ranges;
}
