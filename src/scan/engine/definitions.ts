// What a grammar query says about one parsed file: its named definitions, docstrings and
// test markers. Capture names are the contract described in grammars/README.md.
import type { Node, Query, QueryMatch } from "web-tree-sitter";
import type { LoadedLanguage } from "../grammar/runtime.js";
import { withOwnPredicates } from "./own-predicates.js";
import { TreeNav } from "./tree-nav.js";

export interface Definition {
  node: Node;
  /** The node a comment sits above: `node` climbed through the language's wrappers. */
  outer: Node;
  kind: string;
  name: Node;
  /** Extra name parts written before the name (Go receiver type, GoogleTest suite). */
  qualifiers: Node[];
  /** Base class names, for the test rule. */
  bases: string[];
  /** Joins this definition to its enclosing scope; default: the language's separator. */
  separator?: string;
  /** Joins qualifiers to the name; default: the language's separator. */
  qualifierSeparator?: string;
  /** Where to report the definition when not at its name (the call of a call-style test). */
  anchor: Node | null;
  /**
   * Property `scope` = `following`: the definition encloses the siblings after it, up to the
   * next such definition, instead of its own children (PHP's `namespace Shop;`).
   */
  enclosesFollowing: boolean;
  /** Property `title` = `computed`: the name is an expression, its non-literal parts placeholders. */
  computedTitle?: boolean;
}

export interface DefinitionIndex {
  byNode: Map<number, Definition>;
  /** Keyed by `outer`: the first definition (in document order) under each wrapper. */
  byOuter: Map<number, Definition>;
  docstrings: Set<number>;
  /** In text order. */
  testAttributes: Node[];
  /** Nodes captured `@decoration`: decorations chosen by a query rather than by node type. */
  decorations: Set<number>;
  /** Nodes captured `@comment`: comments chosen by a query (Elixir's `@doc "..."`). */
  comments: Set<number>;
  /** Nodes captured `@test.untitled`: tests whose title no text can tell (`test(name, ...)`). */
  untitledTests: Set<number>;
  /** Definitions that enclose their following siblings, in document order. */
  following: Definition[];
  /** Parent and sibling look-ups of this tree, cheap however large it is. */
  nav: TreeNav;
}

const DEFINITION = "definition.";

interface Candidate {
  patternIndex: number;
  node: Node;
  kind: string;
  name: Node;
  qualifiers: Node[];
  anchor: Node | null;
  properties: Record<string, string | null>;
}

function candidateOf(match: QueryMatch): { node: Node; candidate: Candidate | null; bases: string[] } | null {
  let node: Node | null = null;
  let kind = "";
  let name: Node | null = null;
  let anchor: Node | null = null;
  const qualifiers: Node[] = [];
  const bases: string[] = [];
  for (const { name: capture, node: captured } of match.captures) {
    if (capture.startsWith(DEFINITION)) {
      node = captured;
      kind = capture.slice(DEFINITION.length);
    } else if (capture === "name") name = captured;
    else if (capture === "anchor") anchor = captured;
    else if (capture === "qualifier") qualifiers.push(captured);
    else if (capture === "base") bases.push(captured.text);
  }
  if (!node) return null;
  const candidate = name
    ? { patternIndex: match.patternIndex, node, kind, name, qualifiers, anchor, properties: match.setProperties ?? {} }
    : null;
  return { node, candidate, bases };
}

/** Part of a file to query, in JavaScript string indexes (UTF-16 code units). */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * `range`: query only the nodes meeting that part of the file (with what encloses it); the
 * whole tree without. web-tree-sitter takes byte offsets of its UTF-16 text: twice the index.
 * `inStrings`: some tag lies in a string node, so the row's string queries run too.
 */
export function indexDefinitions(
  lang: LoadedLanguage,
  root: Node,
  nav = new TreeNav(root),
  range: TextRange | null = null,
  inStrings = false,
): DefinitionIndex {
  const index: DefinitionIndex = {
    byNode: new Map(),
    byOuter: new Map(),
    docstrings: new Set(),
    testAttributes: [],
    decorations: new Set(),
    comments: new Set(),
    untitledTests: new Set(),
    following: [],
    nav,
  };
  const best = new Map<number, Candidate>();
  const bases = new Map<number, string[]>();
  const run = (query: Query) =>
    range ? query.matches(root, { startIndex: 2 * range.start, endIndex: 2 * range.end }) : query.matches(root);
  const matches = withOwnPredicates(lang.query, nav, run(lang.query));
  // The string queries' patterns count after the main query's: its patterns win.
  const strings = inStrings ? lang.stringQuery : null;
  if (strings) {
    const offset = lang.query.patternCount();
    for (const match of run(strings)) matches.push({ ...match, patternIndex: match.patternIndex + offset });
  }
  for (const match of matches) {
    for (const { name, node } of match.captures) {
      if (name === "docstring") index.docstrings.add(node.id);
      else if (name === "test.attribute") index.testAttributes.push(node);
      else if (name === "decoration") index.decorations.add(node.id);
      else if (name === "comment") index.comments.add(node.id);
      else if (name === "test.untitled") index.untitledTests.add(node.id);
    }
    const found = candidateOf(match);
    if (!found) continue;
    const id = found.node.id;
    if (found.bases.length > 0) bases.set(id, [...(bases.get(id) ?? []), ...found.bases]);
    const current = best.get(id);
    // The first pattern of the query wins: specific patterns (tests, methods) come first.
    if (found.candidate && (!current || found.candidate.patternIndex < current.patternIndex)) {
      best.set(id, found.candidate);
    }
  }
  index.testAttributes.sort((a, b) => a.startIndex - b.startIndex);
  const ordered = [...best.values()].sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (const c of ordered) {
    let outer = c.node;
    for (let up = index.nav.parent(outer); up && lang.wrappers.has(up.type); up = index.nav.parent(outer)) outer = up;
    const definition: Definition = {
      node: c.node,
      outer,
      kind: c.kind,
      name: c.name,
      qualifiers: c.qualifiers,
      bases: [...new Set(bases.get(c.node.id) ?? [])],
      separator: c.properties.separator ?? undefined,
      qualifierSeparator: c.properties.qualifier_separator ?? undefined,
      anchor: c.anchor,
      enclosesFollowing: c.properties.scope === "following",
    };
    if (c.properties.title === "computed") definition.computedTitle = true;
    index.byNode.set(c.node.id, definition);
    if (definition.enclosesFollowing) index.following.push(definition);
    if (!index.byOuter.has(outer.id)) index.byOuter.set(outer.id, definition);
  }
  return index;
}

/** A comment by node type or by query. */
export function isComment(node: Node, lang: LoadedLanguage, index: DefinitionIndex): boolean {
  return lang.comments.has(node.type) || index.comments.has(node.id);
}

/** A decoration may stand between a comment and its definition: by node type or by query. */
export function isDecoration(node: Node, lang: LoadedLanguage, index: DefinitionIndex): boolean {
  return lang.decorations.has(node.type) || index.decorations.has(node.id);
}

/** The definition whose node or outer wrapper is exactly `node`. */
export function definitionAt(index: DefinitionIndex, node: Node): Definition | undefined {
  return index.byNode.get(node.id) ?? index.byOuter.get(node.id);
}

// Qualified names: a definition's name prefixed by its enclosing scopes.
const QUOTED = /^(["'`])([\s\S]*)\1$/;

/** Test titles are string literals: their quotes are not part of the name. */
export function nameText(node: Node): string {
  const text = node.text.replace(/\s+/g, " ").trim();
  const quoted = QUOTED.exec(text);
  return quoted ? quoted[2] : text;
}

/** The last definition enclosing its following siblings (`namespace Shop;`) before `node`. */
function precedingScope(node: Node, index: DefinitionIndex): Definition | undefined {
  if (index.following.length === 0) return undefined;
  const parent = index.nav.parent(node)?.id;
  let found: Definition | undefined;
  for (const scope of index.following) {
    if (scope.outer.startIndex >= node.startIndex) break;
    if (index.nav.parent(scope.outer)?.id === parent) found = scope;
  }
  return found;
}

/**
 * Enclosing scope definitions, outermost first. A function's body is a world of its own:
 * what is defined there is named from inside it, not as a member of the function's class.
 * Besides ancestors, a definition that encloses its following siblings encloses what comes
 * after it at its level, up to the next one (which it doesn't enclose).
 */
export function enclosingScopes(definition: Definition, index: DefinitionIndex, lang: LoadedLanguage): Definition[] {
  const scopes: Definition[] = [];
  for (let child = definition.node, n = index.nav.parent(child); n; child = n, n = index.nav.parent(n)) {
    // Such a definition ends the previous one rather than being enclosed by it.
    const own = child === definition.node && definition.enclosesFollowing;
    const preceding = own ? undefined : precedingScope(child, index);
    if (preceding) scopes.unshift(preceding);
    const enclosing = index.byNode.get(n.id);
    if (!enclosing) continue;
    if (!lang.scopeKinds.has(enclosing.kind)) break;
    scopes.unshift(enclosing);
  }
  return scopes;
}

// speky:speky-ts#SCAN-COMPUTED-TITLE
/**
 * A computed title (`t.input + " throws"`) as the title pattern a runner's titles match: its
 * string literals as text, a concatenation's two sides in turn, any other expression a `${...}`
 * placeholder (`${t.input} throws`).
 */
function computedTitle(node: Node, lang: LoadedLanguage): string {
  if (lang.strings.has(node.type)) return nameText(node).replace(/^`|`$/g, "");
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  if (left && right && node.childForFieldName("operator")?.text === "+") return computedTitle(left, lang) + computedTitle(right, lang);
  if (node.type === "parenthesized_expression" && node.namedChildCount === 1) return computedTitle(node.namedChild(0)!, lang);
  return `\${${node.text.replace(/\s+/g, " ").replace(/[{}]/g, "")}}`;
}

function localName(definition: Definition, lang: LoadedLanguage): string {
  const separator = definition.qualifierSeparator ?? lang.row.separator;
  const name = definition.computedTitle ? computedTitle(definition.name, lang) : nameText(definition.name);
  return [...definition.qualifiers.map(nameText), name].join(separator);
}

export function qualifiedName(definition: Definition, scopes: Definition[], lang: LoadedLanguage): string {
  let name = "";
  for (const part of [...scopes, definition]) {
    name = name ? name + (part.separator ?? lang.row.separator) + localName(part, lang) : localName(part, lang);
  }
  return name;
}
