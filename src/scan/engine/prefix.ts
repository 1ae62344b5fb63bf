// Parsing a prefix of a tagged file instead of all of it: tree-sitter's parse is the largest
// part of a cold scan, and most tags sit well before the end of their file. Only for the
// languages whose row in grammars/languages.json has `prefixParse`. The prefix ends before a
// line after the last tag that can start a statement no deeper than the tag (cutAt); its scan
// stands for the whole file's only when everything the tags' resolution reads lies in it,
// complete, so that the text after the cut cannot change it (judge):
//   - every tag resolved to a symbol without a warning (a free tag's outline needs the whole
//     top level, a warning may come from the cut);
//   - the region read (queryRange in engine.ts: from the comments above the first tag to the
//     end of the definition after the last one; for a language whose test rule looks at a
//     class's other members, to the end of the top-level definition holding the last tag)
//     ends inside the prefix, and the prefix tree's first ERROR or MISSING node comes after
//     it and in no definition a tag resolved to: a definition the cut truncated lacks its
//     closing brace (a MISSING node inside it); in an offside language the cut is only before
//     a top-level line that is not a comment, which ends every definition before it.
// Otherwise the file is parsed whole, as before. Rules that look elsewhere in the file
// (Swift's extensions of test classes, queries that need the whole file, a fallback grammar
// chosen by error counts) keep whole-file parses. test/scan/scan-prefix.test.ts compares both on
// real files of this machine.
import type { Node, Tree } from "web-tree-sitter";
import { type LoadedLanguage, parseBounded, parseBoundMs } from "../grammar/runtime.js";
import type { Definition, TextRange } from "./definitions.js";
import type { TextScan } from "./tag.js";
import type { TreeNav } from "./tree-nav.js";
import { type Mode, STARTS, windowPoints, windowRanges } from "./window.js";

/** A prefix longer than this share of the file saves too little to pay for a failed try. */
const MAX_SHARE = 0.8;
/** Tries before the whole file: each cuts at a later line (at least SKIP characters later). */
const TRIES = 3;
const SKIP = 4096;

export interface TreeScan {
  result: TextScan;
  range: TextRange | null;
  nav: TreeNav;
  tagged: Definition[];
  defined: ReadonlyMap<number, Definition>;
}

type Verdict = "trusted" | "short" | "untrusted";

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The start of the first line after the line holding `from` that is indented no deeper than
 * `indent`, may start a statement and follows a blank line or, in a braces language, a line
 * that closes a block at that depth (compiled JavaScript has no blank lines); null before
 * `limit`.
 */
function cutAt(text: string, from: number, indent: number, mode: "braces" | "offside", limit: number): number | null {
  let at = text.indexOf("\n", from) + 1;
  let closed = false;
  while (at > 0 && at < limit) {
    const next = text.indexOf("\n", at);
    const line = text.slice(at, next < 0 ? text.length : next);
    const code = line.trimStart();
    if (code === "" || code === "\r") closed = true;
    else {
      const depth = indentOf(line);
      if (closed && depth <= indent && STARTS[mode].test(code)) return at;
      closed = mode === "braces" && depth <= indent && code.startsWith("}");
    }
    at = next + 1;
  }
  return null;
}

/** The first ERROR or MISSING node in text order, visiting only subtrees that hold one. */
function firstProblem(node: Node, nav: TreeNav): Node | null {
  if (node.isError || node.isMissing) return node;
  if (!node.hasError) return null;
  for (const child of nav.children(node)) {
    const found = firstProblem(child, nav);
    if (found) return found;
  }
  return node; // an error no child shows: trust nothing before it
}

/** The child of the root holding `index`. */
function topLevel(index: number, nav: TreeNav, root: Node): Node {
  let node = nav.descendantAt(index);
  for (let p = nav.parent(node); p && p.id !== root.id; p = nav.parent(p)) node = p;
  return node;
}

/**
 * A syntax error the cut made after the region: it starts where the region's last definition
 * ends or later, and it is in no definition a tag resolved to (whose span is output): it
 * closes only what encloses them (a MISSING `}` of the class holding a tagged method).
 */
function afterRegion(problem: Node, defEnd: number, scanned: TreeScan): boolean {
  const { tagged, nav, defined } = scanned;
  if (problem.startIndex < defEnd) return false;
  const inTagged = new Set(tagged.flatMap((d) => [d.node.id, d.outer.id]));
  for (let p = nav.parent(problem); p; p = nav.parent(p)) {
    if (inTagged.has(p.id)) return false;
    // The recovery may have made of what encloses a tag something else (TypeScript's
    // `export default class X {` cut before its `}` parses as a class expression, which names
    // no scope): a named node holding the problem must be a definition the query found.
    if (nav.parent(p) && p.childForFieldName("name") && !defined.has(p.id)) return false;
  }
  return true;
}

function judge(lang: LoadedLanguage, prefix: string, tree: Tree, scanned: TreeScan, lastMarker: number, windowed: boolean): Verdict {
  const { result, range, nav } = scanned;
  if (!range) return "untrusted";
  const problem = firstProblem(tree.rootNode, nav);
  // Before the region, a window's syntax error says it started where no statement does.
  if (windowed && problem && problem.startIndex < range.start) return "untrusted";
  if (lang.test.notWithMember) {
    // The whole top-level definition, closed by the text after it (offside languages).
    const regionEnd = Math.max(range.end, topLevel(lastMarker, nav, tree.rootNode).endIndex + 1);
    if (regionEnd >= prefix.length || (problem && problem.startIndex < regionEnd)) return "short";
  } else if (range.end > prefix.length || (problem && !afterRegion(problem, range.end - 1, scanned))) {
    // (range.end is one past the definition's end: a definition closed by its `}` may end the prefix's last line)
    return "short";
  }
  const clean = result.diagnostics.length === 0 && result.tags.every((t) => t.reference && t.symbol !== null && t.warning === null);
  return clean ? "trusted" : "untrusted";
}

/** The window scanPrefix tries first (window.ts), null: none; tests count the windows tried. */
export function windowFor(lang: LoadedLanguage, text: string, markers: number[]): number[] | null {
  const mode = lang.row.prefixParse;
  return mode ? windowPoints(text, markers[0], mode, lang.row.windowBarrier, lang.test.notWithMember) : null;
}

// speky:speky-ts#SCAN-PREFIX
/**
 * The scan of a prefix of `text` when it stands for the whole file's (see above), else null.
 * `scan` scans a prefix with its tree (engine.ts). A window from windowStart is tried first,
 * then the prefix from the file's start.
 */
export function scanPrefix(
  lang: LoadedLanguage,
  text: string,
  markers: number[],
  scan: (prefix: string, tree: Tree) => TreeScan,
): TextScan | null {
  const mode = lang.row.prefixParse;
  if (!mode || lang.test.extendedClass) return null;
  const window = windowFor(lang, text, markers);
  return (window ? scanFrom(lang, text, markers, scan, mode, window) : null) ?? scanFrom(lang, text, markers, scan, mode, null);
}

/** The tries of scanPrefix, from the file's start (`window` null) or a window's. */
function scanFrom(
  lang: LoadedLanguage,
  text: string,
  markers: number[],
  scan: (prefix: string, tree: Tree) => TreeScan,
  mode: Mode,
  window: number[] | null,
): TextScan | null {
  const last = markers[markers.length - 1];
  const lineStart = text.lastIndexOf("\n", last) + 1;
  // Offside: a body may go on at the tag's indentation (a docstring's tag), and where a class
  // must be whole (its other members' names count), it ends at the top level.
  const indent = mode === "offside" || lang.test.notWithMember ? 0 : indentOf(text.slice(lineStart, last));
  // A window ends at the file's end at the latest; a prefix is worth it only well before.
  const limit = window ? text.length : text.length * MAX_SHARE;
  let from = last;
  for (let attempt = 0; attempt <= TRIES; attempt++) {
    // After the tries, a window takes the rest of the file; a prefix leaves it to a whole parse.
    const cut = (attempt < TRIES ? cutAt(text, from, indent, mode, limit) : null) ?? (window ? text.length : null);
    if (cut === null) return null;
    const prefix = text.slice(0, cut);
    let tree: Tree;
    try {
      tree = parseBounded(lang, prefix, parseBoundMs(), window ? windowRanges(prefix, window) : undefined);
    } catch {
      return null; // the whole file's parse reports it, or does better
    }
    try {
      const scanned = scan(prefix, tree);
      const verdict = judge(lang, prefix, tree, scanned, last, window !== null);
      if (verdict === "trusted") return scanned.result;
      if (verdict === "untrusted" || cut === text.length) return null;
    } finally {
      tree.delete();
    }
    from = cut + SKIP * 4 ** attempt;
  }
  return null;
}
