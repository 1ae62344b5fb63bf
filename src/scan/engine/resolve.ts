// From a tag's comment or docstring to the definition it documents.
import type { Node } from "web-tree-sitter";
import type { TextPositions } from "../../text-positions.js";
import type { LoadedLanguage } from "../grammar/runtime.js";
import { type Definition, type DefinitionIndex, definitionAt, isComment, isDecoration } from "./definitions.js";

export interface ResolveContext {
  lang: LoadedLanguage;
  index: DefinitionIndex;
  text: string;
  positions: TextPositions;
  /**
   * What the walk from a comment or decoration (its end as the last end) found: the same for
   * every comment of a run, so a run of N tagged comments is walked once, not N times.
   */
  walks: Map<number, Resolution>;
}

export interface Resolution {
  definition: Definition | null;
  /** The walk met a syntax error: whatever it found can't be trusted. */
  parseError: boolean;
}

const FREE: Resolution = { definition: null, parseError: false };

/** Whitespace-only anonymous tokens (Go's newlines) are layout, not code. */
function nextSibling(node: Node, index: DefinitionIndex): Node | null {
  let next = index.nav.nextSibling(node);
  while (next && !next.isNamed && next.text.trim() === "") next = index.nav.nextSibling(next);
  return next;
}

function nearestDefinitionAncestor(node: Node, index: DefinitionIndex): Definition | undefined {
  for (let n = index.nav.parent(node); n; n = index.nav.parent(n)) {
    const found = definitionAt(index, n);
    if (found) return found;
  }
  return undefined;
}

/**
 * A comment inside a definition's header, before its name (between decorators, among
 * Java modifiers, after `template <...>`), documents that definition, blank lines allowing.
 */
function headerDefinition(comment: Node, ctx: ResolveContext): Resolution | null {
  const enclosing = nearestDefinitionAncestor(comment, ctx.index);
  if (!enclosing || comment.endIndex > enclosing.name.startIndex) return null;
  const adjacent = !hasBlankLine(ctx.text.slice(comment.endIndex, enclosing.name.startIndex));
  // Inside an ERROR node a query names as a definition: trusted only as wellFormed says.
  if (adjacent && enclosing.node.isError && !wellFormed(enclosing, ctx.index, ctx.text, comment.endIndex)) {
    return { definition: null, parseError: true };
  }
  return { definition: adjacent ? enclosing : null, parseError: false };
}

export function anchorNode(definition: Definition): Node {
  return definition.anchor ?? definition.name;
}

// speky:speky-ts#SCAN-SYMBOL
/**
 * The definition directly below a comment: only comments and decorations (decorators,
 * attributes, annotations) in between, and no blank line. When the comment is the last
 * thing in its parent, the walk goes on after the parent (comments a grammar attached to
 * the end of the previous block).
 */
export function resolveComment(comment: Node, ctx: ResolveContext): Resolution {
  const header = headerDefinition(comment, ctx);
  if (!header) return walkBelow(comment, ctx);
  // A definition inside the one whose header holds the comment, right below the comment, is
  // the one it documents: a constant of a Go `const (` group, whose name lies further inside.
  const below = header.definition ? walkBelow(comment, ctx).definition : null;
  return below && below !== header.definition && encloses(header.definition?.node, below.outer)
    ? { definition: below, parseError: false }
    : header;
}

function encloses(outer: Node | undefined, inner: Node): boolean {
  return !!outer && outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** The definition below a comment that is not in a definition's header: the sibling walk. */
function walkBelow(comment: Node, ctx: ResolveContext): Resolution {
  const { lang, index, text, positions } = ctx;
  // A comment after code on its line belongs to that code.
  if (positions.linePrefix(comment.startIndex).trim() !== "") return FREE;
  const known = ctx.walks.get(comment.id);
  if (known) return known;
  const walked = [comment.id];
  const found = (resolution: Resolution) => {
    for (const id of walked) ctx.walks.set(id, resolution);
    return resolution;
  };
  let current: Node = comment;
  let lastEnd = comment.endIndex;
  for (;;) {
    const next = nextSibling(current, index);
    if (!next) {
      const parent = index.nav.parent(current);
      if (!parent) return found(FREE);
      current = parent;
      continue;
    }
    if (hasBlankLine(text.slice(lastEnd, next.startIndex))) return found(FREE);
    if (next.isError) {
      // An ERROR node a query names as a definition, or one opening with a well-formed definition.
      const definition = definitionStartingAt(next, index);
      return found(
        definition && wellFormed(definition, index, text) ? { definition, parseError: false } : { definition: null, parseError: true },
      );
    }
    if (isComment(next, lang, index) || isDecoration(next, lang, index)) {
      const after = ctx.walks.get(next.id);
      if (after) return found(after);
      walked.push(next.id);
      current = next;
      lastEnd = next.endIndex;
      continue;
    }
    return found({ definition: definitionStartingAt(next, index), parseError: false });
  }
}

// speky:speky-ts#GRAM-TOLERANCE
/**
 * A definition whose own text parsed cleanly, whatever the rest of the file: its subtree has
 * no ERROR or MISSING node. An ERROR node that a query captures as a definition (a C
 * prototype followed by a macro the grammar can't know, `int f(void) __THROW;`) counts when
 * the part holding its name is clean and nothing between `from` (the node's start, or the
 * end of the tag's comment inside it) and the name ends a statement or opens a block.
 */
export function wellFormed(definition: Definition, index: DefinitionIndex, text: string, from = definition.node.startIndex): boolean {
  const { node, name } = definition;
  if (name.isMissing || name.startIndex === name.endIndex) return false;
  if (!node.isError) return !node.hasError;
  const holder = index.nav.parent(name) ?? name;
  return !holder.hasError && !holder.isError && !/[;{}]/.test(text.slice(from, name.startIndex));
}

/**
 * The definition at `node`, or at its first descendant starting at the same place: a
 * grammar may open a body node right at its first statement, after a leading comment.
 */
function definitionStartingAt(node: Node, index: DefinitionIndex): Definition | null {
  for (let n: Node | null = node; n && n.startIndex === node.startIndex; n = n.firstChild) {
    const found = definitionAt(index, n);
    if (found) return found;
  }
  return null;
}

/** A docstring documents the definition whose body it opens; a module docstring, none. */
export function resolveDocstring(docstring: Node, index: DefinitionIndex): Definition | null {
  return nearestDefinitionAncestor(docstring, index) ?? null;
}

/** Whitespace holding an empty line: what breaks adjacency between a comment and a definition. */
export function hasBlankLine(gap: string): boolean {
  return /\n[ \t\f\v\r]*\n/.test(gap);
}
