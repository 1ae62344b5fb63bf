// Tags of one decoded file: every occurrence of the MARKER becomes a tag (possibly with a
// warning) or a diagnostic. Pure: text in, plain data out.
import path from "node:path";
import type { Node, Tree } from "web-tree-sitter";
import { TextPositions } from "../../text-positions.js";
import { languageRow } from "../grammar/languages.js";
import { type LoadedLanguage, loadLanguage, parseBounded, parseBoundMs, querySource, stringQuerySource } from "../grammar/runtime.js";
import { type Definition, type DefinitionIndex, definitionAt, indexDefinitions, type TextRange } from "./definitions.js";
import { scanPrefix } from "./prefix.js";
import { hasBlankLine } from "./resolve.js";
import { enclosingDefinition, fileOutline } from "./spans.js";
import { MESSAGES, markerIndexes, type TextScan, tagAt } from "./tag.js";
import { classify, inString, place, type ScanContext } from "./tags.js";
import { TreeNav } from "./tree-nav.js";

/** Bounded in time (runtime.ts); the bound's failure and grammar failures reach file.ts. */
function parse(lang: LoadedLanguage, text: string): Tree {
  return parseBounded(lang, text, parseBoundMs());
}

/** Languages whose query needs the whole file (see queryRange), by language id. */
const wholeFileQuery = new Map<string, boolean>();

/**
 * Captures by query that are no node type (Ruby's and Elixir's decorations and comments) or
 * scopes that enclose what follows them (PHP's `namespace x;`) may lie anywhere before a tag.
 */
function needsWholeFile(lang: LoadedLanguage): boolean {
  let whole = wholeFileQuery.get(lang.id);
  if (whole === undefined) {
    const source = querySource(lang.row) + (stringQuerySource(lang.row) ?? "");
    whole = /@(?:decoration|comment)\b/.test(source) || /"following"/.test(source);
    wholeFileQuery.set(lang.id, whole);
  }
  return whole;
}

const layout = (n: Node) => !n.isNamed && n.text.trim() === "";
const stacked = (n: Node, lang: LoadedLanguage) => lang.comments.has(n.type) || lang.decorations.has(n.type);

/**
 * The part of the file the tags' resolution reads: from the comments and decorations stacked
 * before the first tag (test attributes written above a tag) to the end of what follows the
 * last tag's run of comments (the definition it documents), walking out of a parent as
 * resolveComment does. What encloses the range is matched too (a query matches every node
 * meeting the range), so enclosing scopes and their names are known. Null: the whole file.
 */
// speky:speky-ts#SCAN-SPEED
function queryRange(lang: LoadedLanguage, text: string, markers: number[], nav: TreeNav): TextRange | null {
  if (needsWholeFile(lang)) return null;
  let first = nav.descendantAt(markers[0]);
  for (let p = nav.previousSibling(first); p && (layout(p) || stacked(p, lang)); p = nav.previousSibling(p)) first = p;
  let current = nav.descendantAt(markers[markers.length - 1]);
  let end = Math.max(current.endIndex, markers[markers.length - 1] + 1);
  for (;;) {
    let next = nav.nextSibling(current);
    while (next && layout(next)) next = nav.nextSibling(next);
    if (!next) {
      const parent = nav.parent(current);
      if (!parent) break;
      current = parent;
      continue;
    }
    end = Math.max(end, next.endIndex);
    if (hasBlankLine(text.slice(current.endIndex, next.startIndex)) || !stacked(next, lang)) break;
    current = next;
  }
  return { start: Math.min(first.startIndex, markers[0]), end: Math.min(text.length, end + 1) };
}

/**
 * Where the range must start so that it holds the headers of the definitions around the first
 * tag that the tags' resolution reads: a definition whose header holds the tag (`@Test` / tag /
 * `void first()`: the annotations before the tag are the definition's), and the functions and
 * tests whose body holds it (a free tag in a test belongs to that test: its test attributes
 * decide). A test attribute the range left out would make such a test no test. Scopes (a class
 * around the tag) are not widened to: their names are known without their headers. Null when
 * the range already starts early enough.
 */
function headerStart(lang: LoadedLanguage, marker: number, range: TextRange, index: DefinitionIndex): number | null {
  let start = range.start;
  for (let n = index.nav.parent(index.nav.descendantAt(marker)); n; n = index.nav.parent(n)) {
    const definition = definitionAt(index, n);
    if (!definition) continue;
    const header = definition.name.startIndex >= marker;
    if (!header && lang.scopeKinds.has(definition.kind)) break;
    let first = definition.outer;
    for (let p = index.nav.previousSibling(first); p && (layout(p) || stacked(p, lang)); p = index.nav.previousSibling(p)) first = p;
    start = Math.min(start, first.startIndex);
  }
  return start < range.start ? start : null;
}

interface Scanned {
  result: TextScan;
  /** What the tags' resolution read (null: the whole file). */
  range: TextRange | null;
  nav: TreeNav;
  /** The definitions tags resolved to. */
  tagged: Definition[];
  /** Every definition the query found, by node id. */
  defined: ReadonlyMap<number, Definition>;
}

/** `fileText`: the whole file when `text` is a prefix of it (its outline counts the file's lines). */
function scanTree(lang: LoadedLanguage, file: string, text: string, tree: Tree, wholeFile: boolean, fileText = text): Scanned {
  const result: TextScan = { language: lang.id, tags: [], diagnostics: [] };
  const markers = markerIndexes(text);
  const nav = new TreeNav(tree.rootNode);
  if (markers.length === 0) return { result, range: null, nav, tagged: [], defined: new Map() };
  const positions = new TextPositions(text);
  let range = wholeFile ? null : queryRange(lang, text, markers, nav);
  const inStrings = markers.some((at) => inString(nav.descendantAt(at), lang, nav));
  let index = indexDefinitions(lang, tree.rootNode, nav, range, inStrings);
  const header = range && headerStart(lang, markers[0], range, index);
  if (range && header !== null) {
    range = { start: header, end: range.end };
    index = indexDefinitions(lang, tree.rootNode, nav, range, inStrings);
  }
  const ctx: ScanContext = { lang, index, text, positions, walks: new Map(), symbols: new Map(), tagged: new Map() };
  const freeTagNodes: Node[] = [];
  for (const at of markers) {
    const node = index.nav.descendantAt(at);
    const where = place(node, lang, index);
    const tag = tagAt(text, at);
    const written = positions.at(at);
    if (tag) {
      const raw = classify(tag, written, where, ctx, file);
      if (raw.reference && raw.symbol === null) freeTagNodes.push(where.holder ?? node);
      result.tags.push(raw);
    }
    // A malformed tag in a comment is a typo worth a warning; elsewhere, prose or code about tags.
    else if (where.holder) result.diagnostics.push({ ...written, message: MESSAGES.malformed });
  }
  const outlineIndex = range && freeTagNodes.length > 0 ? outlineIndexOf(lang, tree, range, freeTagNodes, index) : index;
  result.outline = fileOutline(fileText, ctx.tagged.values(), freeTagNodes, outlineIndex, lang);
  return { result, range, nav, tagged: [...ctx.tagged.values()], defined: index.byNode };
}

// speky:speky-ts#SCAN-TAGS
/**
 * Finds and classifies every MARKER occurrence of `text`, parsed with `lang`. `wholeFile`
 * queries the whole tree as before issue 14 (the bench and the equivalence test compare).
 */
export function scanTextWith(lang: LoadedLanguage, file: string, text: string, tree: Tree, wholeFile = false): TextScan {
  return scanTree(lang, file, text, tree, wholeFile).result;
}

/**
 * The outline of a free tag needs the definitions directly inside the innermost definition
 * enclosing it (the whole file's top level when none does): the query's range widened to
 * those definitions, queried again only when that adds to it.
 */
function outlineIndexOf(lang: LoadedLanguage, tree: Tree, range: TextRange, free: Node[], index: DefinitionIndex): DefinitionIndex {
  let { start, end } = range;
  for (const node of free) {
    const region = enclosingDefinition(node, index);
    if (!region) return indexDefinitions(lang, tree.rootNode, index.nav, null);
    start = Math.min(start, region.outer.startIndex);
    end = Math.max(end, region.outer.endIndex);
  }
  return start === range.start && end === range.end ? index : indexDefinitions(lang, tree.rootNode, index.nav, { start, end });
}

/** Syntax errors in a tree, visiting only subtrees that hold some. */
function errorCount(node: Node): number {
  if (node.isError || node.isMissing) return 1;
  if (!node.hasError) return 0;
  let count = 0;
  for (const child of node.children) if (child) count += errorCount(child);
  return count;
}

/**
 * The scan of `text` from a parse of a prefix of it when that stands for the whole file's
 * (prefix.ts), else null: the grammar's row allows it, no fallback grammar may replace it and
 * the query needs no text before the tags.
 */
export async function scanTextPrefix(file: string, language: string, text: string): Promise<TextScan | null> {
  const markers = markerIndexes(text);
  if (markers.length === 0 || languageRow(language).fallback?.[path.extname(file).toLowerCase()]) return null;
  const lang = await loadLanguage(language);
  if (needsWholeFile(lang)) return null;
  return scanPrefix(lang, text, markers, (prefix, tree) => scanTree(lang, file, prefix, tree, false, text));
}

/**
 * Scans `text` as `language`: from a prefix when scanTextPrefix can (`prefix: false`: never,
 * for the test that compares both), else whole. When the grammar finds syntax errors and the
 * table names a fallback for the file's extension (C headers that are C++), the fallback is
 * tried and kept if it finds fewer.
 */
export async function scanText(file: string, language: string, text: string, options: { prefix?: boolean } = {}): Promise<TextScan> {
  if (markerIndexes(text).length === 0) return { language, tags: [], diagnostics: [] };
  if (options.prefix !== false) {
    const scanned = await scanTextPrefix(file, language, text);
    if (scanned) return scanned;
  }
  let lang = await loadLanguage(language);
  let tree = parse(lang, text);
  const fallback = languageRow(language).fallback?.[path.extname(file).toLowerCase()];
  if (tree.rootNode.hasError && fallback) {
    const other = await loadLanguage(fallback);
    const otherTree = parse(other, text);
    if (errorCount(otherTree.rootNode) >= errorCount(tree.rootNode)) otherTree.delete();
    else {
      tree.delete();
      [lang, tree] = [other, otherTree];
    }
  }
  try {
    return scanTextWith(lang, file, text, tree);
  } finally {
    tree.delete();
  }
}
