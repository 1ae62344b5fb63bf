// Where definitions start and end, as lines: what find_code_references(file, line) needs to
// tell "inside this definition" from "inside a neighbour" or "outside every definition".
//
// Only the spans a lookup can need are kept, and each is found from the nodes around a tag:
// a tagged definition's own span; for a free tag, the definitions enclosing it (its
// ancestors) and the definitions directly inside the innermost of them (the holes of that
// region). Only a free tag outside every definition needs the file's top-level definitions,
// so a definitions query narrowed to the byte ranges around the tags suffices for the rest
// (see `definitionsUnder`).
import type { Node } from "web-tree-sitter";
import type { LoadedLanguage } from "../grammar/runtime.js";
import { type Definition, type DefinitionIndex, definitionAt, isComment, isDecoration } from "./definitions.js";

/** 1-based first and last line, both included. */
export type Span = [start: number, end: number];

/** Plain data (cached, sent between threads). */
export interface FileOutline {
  /** Lines of the file: a line past them is in no definition and names nothing. */
  lines: number;
  /** Sorted by start, then by end descending (an enclosing span before the ones inside it); no repeats. */
  spans: Span[];
}

const startLine = (node: Node) => node.startPosition.row + 1;

/** A node ending right after a line break ends on the line before. */
function endLine(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

export function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** Decorations written as siblings before the definition (Rust's `#[test]`) start its span. */
function firstDecoration(outer: Node, index: DefinitionIndex, lang: LoadedLanguage): Node {
  let first = outer;
  for (let sib = index.nav.previousSibling(outer); sib; sib = index.nav.previousSibling(sib)) {
    if (isDecoration(sib, lang, index)) first = sib;
    else if (!isComment(sib, lang, index)) break;
  }
  return first;
}

/**
 * A definition enclosing its following siblings (PHP's `namespace Shop;`) ends before the
 * next such definition at its level, or with its parent.
 */
function followingEnd(definition: Definition, index: DefinitionIndex): number {
  const parent = index.nav.parent(definition.outer);
  const next = index.following.find(
    (d) => d.outer.startIndex > definition.outer.startIndex && index.nav.parent(d.outer)?.id === parent?.id,
  );
  if (next) return Math.max(startLine(next.outer) - 1, startLine(definition.outer));
  return parent ? endLine(parent) : endLine(definition.outer);
}

// speky:speky-ts#NAV-SPANS
/** From the first decorator, attribute or name line to the last line. */
export function definitionSpan(definition: Definition, index: DefinitionIndex, lang: LoadedLanguage): Span {
  const first = firstDecoration(definition.outer, index, lang);
  const start = Math.min(startLine(first), startLine(definition.name));
  const end = definition.enclosesFollowing ? followingEnd(definition, index) : endLine(definition.outer);
  return [start, Math.max(start, end)];
}

/** The innermost definition strictly enclosing `node`, or null at top level. */
export function enclosingDefinition(node: Node, index: DefinitionIndex): Definition | null {
  for (let n = index.nav.parent(node); n; n = index.nav.parent(n)) {
    const found = definitionAt(index, n);
    if (found) return found;
  }
  return null;
}

/** Definitions in document order (of their node's start), per index. */
const ordered = new WeakMap<DefinitionIndex, Definition[]>();

function inOrder(index: DefinitionIndex): Definition[] {
  let list = ordered.get(index);
  if (!list) {
    list = [...index.byNode.values()].sort((a, b) => a.node.startIndex - b.node.startIndex);
    ordered.set(index, list);
  }
  return list;
}

/**
 * Definitions written inside `node` (the whole file for null). This is the one place that
 * needs definitions away from the tags; a narrowed query would run over `node`'s range.
 */
export function definitionsUnder(index: DefinitionIndex, node: Node | null): Definition[] {
  const all = inOrder(index);
  if (!node) return all;
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid].node.startIndex < node.startIndex) lo = mid + 1;
    else hi = mid;
  }
  const under: Definition[] = [];
  for (let i = lo; i < all.length && all[i].node.startIndex < node.endIndex; i++) {
    const d = all[i];
    if (d.node.endIndex <= node.endIndex && d.outer.id !== node.id) under.push(d);
  }
  return under;
}

/** The definitions whose innermost enclosing definition is `parent` (top-level ones for null). */
function childDefinitions(parent: Definition | null, index: DefinitionIndex): Definition[] {
  const under = definitionsUnder(index, parent ? parent.outer : null);
  return under.filter((d) => d !== parent && enclosingDefinition(d.outer, index) === parent);
}

/**
 * The outline of a file: the spans of its tagged definitions, and for each free tag (given
 * by the node holding it) the spans of the definitions enclosing it and of those directly
 * inside the innermost one.
 */
export function fileOutline(
  text: string,
  tagged: Iterable<Definition>,
  freeTagNodes: Iterable<Node>,
  index: DefinitionIndex,
  lang: LoadedLanguage,
): FileOutline {
  const chosen = new Map<number, Definition>();
  for (const d of tagged) chosen.set(d.node.id, d);
  const regions = new Map<number, Definition | null>();
  for (const node of freeTagNodes) {
    const inner = enclosingDefinition(node, index);
    regions.set(inner ? inner.node.id : -1, inner);
    for (let d = inner; d; d = enclosingDefinition(d.outer, index)) chosen.set(d.node.id, d);
  }
  for (const region of regions.values()) for (const d of childDefinitions(region, index)) chosen.set(d.node.id, d);
  const unique = new Map<string, Span>();
  for (const d of chosen.values()) {
    const span = definitionSpan(d, index, lang);
    unique.set(`${span[0]}:${span[1]}`, span);
  }
  const spans = [...unique.values()].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  return { lines: lineCount(text), spans };
}
