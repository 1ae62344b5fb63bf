// What one tag written in a parsed file becomes, from where it is written: a symbol reference
// (the definition below its comment or around its docstring), a free reference, or a warning.
import type { Node } from "web-tree-sitter";
import type { Position } from "../../text-positions.js";
import type { LoadedLanguage } from "../grammar/runtime.js";
import { type Definition, type DefinitionIndex, enclosingScopes, qualifiedName } from "./definitions.js";
import { isTest } from "./is-test.js";
import { anchorNode, type ResolveContext, resolveComment, resolveDocstring, wellFormed } from "./resolve.js";
import { definitionSpan, type Span } from "./spans.js";
import { MESSAGES, type RawTag, type TagText } from "./tag.js";
import type { TreeNav } from "./tree-nav.js";

export type PlaceKind = "comment" | "docstring" | "string" | "code";

export interface Place {
  kind: PlaceKind;
  /** The comment or docstring holding the tag; null in a string or in code. */
  holder: Node | null;
  /** Some enclosing node is a syntax error. */
  parseError: boolean;
}

export function place(node: Node, lang: LoadedLanguage, index: DefinitionIndex): Place {
  let found: { kind: PlaceKind; holder: Node | null } | null = null;
  let parseError = false;
  for (let n: Node | null = node; n; n = index.nav.parent(n)) {
    if (n.isError) parseError = true;
    // A comment by query (Elixir's `@doc "..."`) holds the string literal inside it.
    if (index.comments.has(n.id)) found = { kind: "comment", holder: n };
    if (found) continue;
    if (lang.comments.has(n.type)) found = { kind: "comment", holder: n };
    else if (index.docstrings.has(n.id)) found = { kind: "docstring", holder: n };
    else if (lang.strings.has(n.type)) found = { kind: "string", holder: null };
  }
  return { ...(found ?? { kind: "code", holder: null }), parseError };
}

/** What a symbol reference says of its definition, whichever of its tags asks. */
type SymbolPart = Pick<RawTag, "line" | "column" | "symbol" | "kind" | "is_test"> & { span: Span };

export interface ScanContext extends ResolveContext {
  /** By definition node: many tags above one definition resolve it once. */
  symbols: Map<number, SymbolPart | null>;
  /** Definitions some tag resolved to, by node id. */
  tagged: Map<number, Definition>;
}

/** A name the parser invented to recover from a syntax error (a MISSING node) names nothing. */
const invented = (d: Definition) => [d.name, ...d.qualifiers].some((n) => n.isMissing || n.startIndex === n.endIndex);

/** null when the definition or an enclosing scope has no real name. */
function symbolPart(definition: Definition, ctx: ScanContext, file: string): SymbolPart | null {
  let part = ctx.symbols.get(definition.node.id);
  if (part === undefined) {
    const scopes = enclosingScopes(definition, ctx.index, ctx.lang);
    part = [definition, ...scopes].some(invented)
      ? null
      : {
          ...ctx.positions.at(anchorNode(definition).startIndex),
          symbol: qualifiedName(definition, scopes, ctx.lang),
          kind: definition.kind,
          is_test: isTest(definition, scopes, ctx.index, ctx.lang, file),
          span: definitionSpan(definition, ctx.index, ctx.lang),
        };
    ctx.symbols.set(definition.node.id, part);
  }
  return part;
}

function symbolTag(tag: TagText, written: Position, definition: Definition, ctx: ScanContext, file: string): RawTag | null {
  const part = symbolPart(definition, ctx, file);
  if (!part) return null;
  const { line, column, symbol, kind, is_test, span } = part;
  ctx.tagged.set(definition.node.id, definition);
  return {
    line,
    column,
    tag_line: written.line,
    tag_column: written.column,
    ...tag,
    symbol,
    kind,
    is_test,
    reference: true,
    warning: null,
    span,
  };
}

/** A tag located where it is written, documenting no definition. */
export function freeTag(tag: TagText, written: Position, reference: boolean, warning: string | null): RawTag {
  const { line, column } = written;
  const unresolved = { symbol: null, kind: null, is_test: false };
  return { line, column, tag_line: line, tag_column: column, ...tag, ...unresolved, reference, warning };
}

function codeWarning(where: Place): string {
  if (where.parseError) return MESSAGES.parseErrorCode;
  return where.kind === "string" ? MESSAGES.inString : MESSAGES.inCode;
}

/** What one well-formed tag becomes, from where it is written. */
export function classify(tag: TagText, written: Position, where: Place, ctx: ScanContext, file: string): RawTag {
  if (!where.holder) return freeTag(tag, written, false, codeWarning(where));
  const resolved =
    where.kind === "docstring"
      ? { definition: resolveDocstring(where.holder, ctx.index), parseError: false }
      : resolveComment(where.holder, ctx);
  // A syntax error elsewhere (around the comment) doesn't matter when the definition itself parsed cleanly.
  const trusted = resolved.definition !== null && wellFormed(resolved.definition, ctx.index, ctx.text);
  if ((where.parseError && !trusted) || resolved.parseError) return freeTag(tag, written, true, MESSAGES.parseErrorComment);
  if (resolved.definition) {
    return symbolTag(tag, written, resolved.definition, ctx, file) ?? freeTag(tag, written, true, MESSAGES.parseErrorComment);
  }
  return inTest(tag, written, where.holder, ctx, file) ?? freeTag(tag, written, true, null);
}

// speky:speky-ts#SCAN-FREE-IN-TEST
/**
 * A tag documenting no definition but written inside a test (its body's first line, the end
 * of its signature line, a closure in it) belongs to the innermost test around it: the
 * reference is that test's, is_test, matched as it is (verification.md, "Free tags inside a test"). Outside tests a
 * free tag stays free, as speky has it.
 */
function inTest(tag: TagText, written: Position, holder: Node, ctx: ScanContext, file: string): RawTag | null {
  for (let n = ctx.index.nav.parent(holder); n; n = ctx.index.nav.parent(n)) {
    // Never silently manual: a test whose title no text tells can't be matched to its results.
    if (ctx.index.untitledTests.has(n.id)) return freeTag(tag, written, true, MESSAGES.untitledTest);
    const definition = ctx.index.byNode.get(n.id);
    if (!definition || definition.name.startIndex >= holder.startIndex) continue;
    const part = symbolPart(definition, ctx, file);
    if (part?.is_test) return symbolTag(tag, written, definition, ctx, file);
  }
  return null;
}

/** Whether `node` is or lies in a string node of the language (where a docstring may hold a tag). */
export function inString(node: Node, lang: LoadedLanguage, nav: TreeNav): boolean {
  for (let n: Node | null = node; n; n = nav.parent(n)) if (lang.strings.has(n.type)) return true;
  return false;
}
