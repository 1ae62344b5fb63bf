// YAML through the `yaml` package, for what the fast reader leaves: its AST is walked directly
// so that every node keeps its line and column. Loaded only when needed (yaml/source.ts).
import {
  type Alias,
  CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  parseDocument,
  type Scalar,
  visit,
  type YAMLError,
  type Node as YamlNode,
} from "yaml";
import { quote } from "../../quote.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { type Pos, type SEntry, type SMap, type SNode, scalar } from "../format/node.js";
import { pyBlockScalar } from "./block.js";
import { explicitFloat, plainScalar, tagName, unconstructibleTag, YAML_OPTIONS } from "./scalars.js";

/**
 * Alias uses allowed in one file, weighted by how many aliases each aliased node holds itself
 * (the `yaml` package's maxAliasCount). Generous for real files, which rarely use aliases, yet
 * an alias bomb ("billion laughs") is refused after a few thousand steps.
 */
export const MAX_YAML_ALIASES = 10_000;

/**
 * Bytes of content that aliases may add to one file, beyond the file's own length: the alias
 * count alone lets one 1 MB string aliased 9,000 times through (9 GB once an answer serialises
 * it). With this, what a YAML file loads is at most its own size twice plus 1 MiB, whatever its
 * aliases; real files, which alias a few small blocks, stay far below.
 */
export const MAX_YAML_ALIAS_BYTES = 1024 * 1024;

class AliasBomb extends Error {}
/** An alias the `yaml` package could not resolve (no such anchor, a merge of a non-map). */
class BadAlias extends Error {}
/** A refusal at a known place of the document. */
class LocatedError extends Error {
  constructor(
    readonly at: Pos,
    message: string,
  ) {
    super(message);
  }
}

function yamlMessage(message: string): string {
  const first = message.split("\n")[0];
  return first.startsWith("Maximum call stack size exceeded") ? "the document is nested too deeply" : first;
}

/** Where the quoted scalar that runs up to offset `end` opens, if there is one. */
function unclosedQuoteStart(doc: Document.Parsed, end: number): number | undefined {
  let start: number | undefined;
  visit(doc, {
    Scalar(_, node) {
      const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE";
      if (quoted && node.range && node.range[1] >= end) start = node.range[0];
    },
  });
  return start;
}

/** readYaml through the `yaml` package only (the reference the fast reader is tested against). */
export function readYamlFully(text: string, report: FileDiagnostics): SNode | null | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const pos = (offset: number): Pos => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  // Later errors mostly follow from the first: report that one, as precisely as we can.
  const first = doc.errors.reduce<YAMLError | undefined>((a, e) => (!a || e.pos[0] < a.pos[0] ? e : a), undefined);
  if (first) {
    const opening = first.code === "MISSING_CHAR" ? unclosedQuoteStart(doc, first.pos[0]) : undefined;
    if (opening !== undefined) report.error(pos(opening), "YAML syntax error: this quoted string is never closed");
    else if (first.code === "MULTIPLE_DOCS") {
      report.error(pos(first.pos[0]), "a specification file holds a single YAML document (found a second '---')");
    } else report.error(pos(first.pos[0]), `YAML syntax error: ${yamlMessage(first.message)}`);
    return undefined;
  }
  // PyYAML's safe_load refuses tags it does not know, so speky does: so do we.
  // `!!float 1` and `!!null x` are not unknown to PyYAML: it constructs them (see scalar()).
  const unknownTags = doc.warnings.filter((w) => w.code === "TAG_RESOLVE_FAILED" && !/tag:yaml\.org,2002:(?:float|null)\b/.test(w.message));
  for (const w of unknownTags) {
    report.error(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)} (speky refuses unknown tags)`);
  }
  if (unknownTags.length > 0) return undefined;
  const tab = misplacedTab(text);
  if (tab !== undefined) {
    report.error(
      pos(tab),
      "YAML syntax error: a tab character cannot start a token (PyYAML, which speky reads YAML with, " +
        "refuses tabs outside quoted strings, block scalars and comments: use spaces)",
    );
    return undefined;
  }
  for (const w of doc.warnings) {
    if (w.code !== "TAG_RESOLVE_FAILED") report.warning(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)}`);
  }
  try {
    const root = new AstConverter(doc, text, pos, report).convert(doc.contents);
    // A document holding only `~` is as empty as PyYAML sees it.
    return root?.type === "scalar" && root.tag === "null" ? null : root;
  } catch (e) {
    if (e instanceof RangeError) {
      report.error(null, `YAML syntax error: ${yamlMessage(e.message)}`);
      return undefined;
    }
    if (e instanceof BadAlias) {
      report.error(null, `YAML: ${yamlMessage(e.message)}`);
      return undefined;
    }
    if (e instanceof LocatedError) {
      report.error(e.at, e.message);
      return undefined;
    }
    if (!(e instanceof AliasBomb)) throw e;
    report.error(null, `too many YAML alias expansions (limit ${MAX_YAML_ALIASES}): refusing what looks like an alias bomb`);
    return undefined;
  }
}

// speky:speky-ts#SPEC-YAML-PYYAML
/**
 * Offset of the first tab PyYAML's scanner would refuse: its scanner skips only spaces between
 * tokens and ends plain scalars at a tab, so a tab is allowed only inside quoted scalars, block
 * scalar content and comments (`a:\tb` and `a: b\tc` both fail there). Read off the `yaml`
 * package's lexer tokens; undefined when there is none.
 */
function misplacedTab(text: string): number | undefined {
  if (!text.includes("\t")) return undefined;
  let offset = 0;
  let afterBlockHeader = false;
  let inBlockBody = false;
  let explicitIndent = false;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === "scalar") {
      // The scalar marker: its source follows as the next token.
      inBlockBody = afterBlockHeader;
      afterBlockHeader = false;
      continue;
    }
    if (type === "doc-mode" || type === "flow-error-end") continue;
    if (type === "block-scalar-header") {
      afterBlockHeader = true;
      // With an indentation indicator the body's indentation is not its first line's: PyYAML
      // takes tabs past it as content; left to the `yaml` package's own checks.
      explicitIndent = /[1-9]/.test(token);
    } else if (type !== "space" && type !== "newline" && type !== "comment") afterBlockHeader = false;
    const tab = token.indexOf("\t");
    if (tab >= 0) {
      if (inBlockBody) {
        // Tabs are content past the block's indentation, never part of it.
        const bad = explicitIndent ? undefined : blockIndentTab(token);
        if (bad !== undefined) return offset + bad;
      } else if (type !== "comment" && type !== "single-quoted-scalar" && type !== "double-quoted-scalar") {
        return offset + tab;
      }
    }
    inBlockBody = false;
    offset += token.length;
  }
  return undefined;
}

/**
 * In a block scalar's body, a tab right after the leading spaces of a line indented less than
 * the block (whose indentation the first line with content sets: a tab there is content).
 */
function blockIndentTab(body: string): number | undefined {
  let indent = -1;
  let start = 0;
  for (const line of body.split("\n")) {
    const spaces = line.length - line.replace(/^ +/, "").length;
    const content = spaces < line.length && line[spaces] !== "\r";
    if (indent >= 0 && line[spaces] === "\t" && spaces < indent) return start + spaces;
    if (indent < 0 && content) indent = spaces;
    start += line.length + 1;
  }
  return undefined;
}

class AstConverter {
  /** Converted anchored nodes, shared by their aliases rather than copied. */
  private readonly anchors = new Map<string, SNode>();
  /** Anchors whose node is being converted: an alias to one of them is recursive. */
  private readonly open = new Set<string>();
  private aliasesChecked = false;
  /** Column (0-based) of the enclosing block collection, PyYAML's `indent`; -1 at the top. */
  private indent = -1;
  /** Bytes the aliases met so far stand for (see MAX_YAML_ALIAS_BYTES). */
  private aliasBytes = 0;
  private readonly aliasBudget: number;
  private readonly sizes = new WeakMap<SNode, number>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly text: string,
    private readonly pos: (offset: number) => Pos,
    private readonly report: FileDiagnostics,
  ) {
    this.aliasBudget = MAX_YAML_ALIAS_BYTES + text.length;
  }

  convert(node: unknown): SNode | null {
    if (node === null || node === undefined) return null;
    if (isScalar(node) && node.value === null && node.source === "" && !node.tag) return null;
    return this.node(node as YamlNode);
  }

  private node(node: YamlNode): SNode {
    if (isAlias(node)) return this.alias(node);
    const at = this.pos(node.range?.[0] ?? 0);
    let result: SNode;
    if (node.anchor) this.open.add(node.anchor);
    const outer = this.indent;
    if ((isMap(node) || isSeq(node)) && !node.flow) this.indent = at.column - 1;
    if (isMap(node)) result = this.map(node.items, at);
    else if (isSeq(node)) {
      result = { type: "seq", items: node.items.map((i) => this.item(i, at)), ...at };
    } else result = this.scalar(node as Scalar, at);
    this.indent = outer;
    if (node.anchor) {
      this.open.delete(node.anchor);
      this.anchors.set(node.anchor, result);
    }
    return result;
  }

  /** An empty entry (`key:` or `-`) is a null at its key or list. */
  private item(node: unknown, parent: Pos): SNode {
    return this.convert(node) ?? scalar("null", null, parent.line, parent.column, "");
  }

  // speky:speky-ts#SPEC-SAFETY
  // speky:speky-ts#SEC-YAML-AMPLIFY
  /** The node an alias names, shared, once the document passed the alias-bomb checks. */
  private alias(node: Alias): SNode {
    const at = this.pos(node.range?.[0] ?? 0);
    // speky:speky-ts#SEC-YAML-RECURSIVE
    if (this.open.has(node.source)) {
      throw new LocatedError(
        at,
        `YAML: the alias '*${node.source}' is inside the node anchored '&${node.source}' it names ` +
          "(a recursive value, which a specification cannot hold)",
      );
    }
    if (!this.aliasesChecked) {
      this.aliasesChecked = true;
      try {
        this.doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
      } catch (e) {
        if (e instanceof ReferenceError && /^Excessive alias count/.test(e.message)) throw new AliasBomb();
        if (e instanceof Error) throw new BadAlias(e.message);
        throw e;
      }
    }
    // The document has no errors, so the anchor exists and precedes the alias.
    const target = this.anchors.get(node.source)!;
    this.aliasBytes += this.size(target);
    if (this.aliasBytes > this.aliasBudget) {
      throw new LocatedError(
        at,
        `YAML aliases expand this file by more than ${this.aliasBudget} bytes (its own size plus ` +
          `${MAX_YAML_ALIAS_BYTES}): refusing what looks like an alias bomb`,
      );
    }
    return target;
  }

  /** Bytes a node stands for once expanded (text of its scalars and keys, one per node more). */
  private size(node: SNode): number {
    let n = this.sizes.get(node);
    if (n !== undefined) return n;
    if (node.type === "scalar") n = 1 + (typeof node.value === "string" ? node.value.length : 8);
    else if (node.type === "seq") n = node.items.reduce((sum, item) => sum + this.size(item), 1);
    else n = node.entries.reduce((sum, e) => sum + e.key.length + this.size(e.value), 1);
    this.sizes.set(node, n);
    return n;
  }

  private map(pairs: unknown[], at: Pos): SMap {
    const own: SEntry[] = [];
    const ownIndex = new Map<string, number>();
    const merged: SEntry[] = [];
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const keyAt = keyNode?.range ? this.pos(keyNode.range[0]) : at;
      if (isScalar(keyNode) && typeof keyNode.value === "symbol") {
        merged.push(...this.mergeSources(pair.value, keyAt));
        continue;
      }
      // A plain `=` key is the text "=" to PyYAML (only as a value is it refused).
      const equals = isScalar(keyNode) && keyNode.type === "PLAIN" && !keyNode.tag && keyNode.source === "=";
      const key = equals ? "=" : keyString(keyNode === null ? null : this.node(keyNode));
      const entry = { key, value: this.item(pair.value, keyAt), ...keyAt };
      // PyYAML keeps the first key's place and the last key's value.
      const first = ownIndex.get(key);
      if (first === undefined) ownIndex.set(key, own.push(entry) - 1);
      else {
        this.report.warning(keyAt, `duplicate key ${quote(key)} (the last one wins)`);
        own[first] = entry;
      }
    }
    if (merged.length === 0) return { type: "map", entries: own, ...at };
    // `<<` merges as PyYAML's flatten_mapping: the merged pairs go first (the last source's
    // first), the map's own after them; a later pair wins, in the place of the first.
    const entries: SEntry[] = [];
    const index = new Map<string, number>();
    for (const entry of [...merged, ...own]) {
      const first = index.get(entry.key);
      if (first === undefined) index.set(entry.key, entries.push(entry) - 1);
      else entries[first] = { ...entries[first], value: entry.value };
    }
    return { type: "map", entries, ...at };
  }

  /** The pairs a `<<` brings, in PyYAML's order; anything but maps is refused as PyYAML does. */
  private mergeSources(value: unknown, at: Pos): SEntry[] {
    const node = this.item(value, at);
    const sources = node.type === "seq" ? [...node.items].reverse() : [node];
    const entries: SEntry[] = [];
    for (const source of sources) {
      if (source.type !== "map") {
        throw new LocatedError(
          { line: source.line, column: source.column },
          "YAML: a merge key (<<) takes a mapping or a list of mappings",
        );
      }
      entries.push(...source.entries);
    }
    return entries;
  }

  private scalar(node: Scalar, at: Pos): SNode {
    if (node.type === "PLAIN" && !node.tag) {
      const unconstructible = unconstructibleTag(String(node.source));
      if (unconstructible) {
        throw new LocatedError(at, `YAML: could not determine a constructor for the tag ${quote(unconstructible)} (quote it)`);
      }
      // Typed by PyYAML's rules, not the `yaml` package's (see yaml/scalars.ts).
      return plainScalar(String(node.source), at.line, at.column);
    }
    let value = node.value;
    const tag = tagName(node.tag);
    if (tag === "null") value = null;
    if (tag === "float" && typeof value === "string") {
      value = explicitFloat(value);
      if (value === undefined) throw new LocatedError(at, `YAML: '${node.source}' is not a number, as !!float says`);
    }
    if ((node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") && typeof value === "string") {
      value = pyBlockScalar(this.text, node.range?.[0] ?? 0, this.indent) ?? value;
    }
    return scalar(tag, value, at.line, at.column);
  }
}

/** Mapping keys become strings the way JSON writes them (`yes:` in YAML 1.1 is `true`). */
function keyString(node: SNode | null): string {
  if (node === null) return "null";
  if (node.type !== "scalar") return JSON.stringify(toPlain(node));
  if (node.value instanceof Date) return node.value.toISOString();
  return String(node.value);
}

function toPlain(node: SNode): unknown {
  if (node.type === "scalar") return node.value;
  if (node.type === "seq") return node.items.map(toPlain);
  return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
}
