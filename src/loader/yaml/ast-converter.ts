// The `yaml` package's AST walked into our positioned tree (for full.ts), with PyYAML's meaning:
// its scalar types, merge keys, duplicate keys; aliases shared, and bounded against alias bombs.
import { type Alias, type Document, isAlias, isMap, isPair, isScalar, isSeq, type Scalar, type Node as YamlNode } from "yaml";
import { quote } from "../../quote.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { type Pos, type SEntry, type SMap, type SNode, scalar } from "../format/node.js";
import { pyBlockScalar } from "./block.js";
import { explicitFloat, plainScalar, tagName, unconstructibleTag } from "./scalars.js";

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

export class AliasBomb extends Error {}
/** An alias the `yaml` package could not resolve (no such anchor, a merge of a non-map). */
export class BadAlias extends Error {}
/** A refusal at a known place of the document. */
export class LocatedError extends Error {
  constructor(
    readonly at: Pos,
    message: string,
  ) {
    super(message);
  }
}

export class AstConverter {
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
