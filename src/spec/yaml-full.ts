// YAML through the `yaml` package, for what the fast reader leaves: its AST is walked directly
// so that every node keeps its line and column. Loaded only when needed (yaml-source.ts).
import {
  Alias,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
  visit,
  type Scalar,
  type YAMLError,
} from "yaml";
import { entryOf, scalar, type Pos, type SMap, type SNode } from "./node.js";
import type { FileReport } from "./report.js";
import { plainScalar, tagName, YAML_OPTIONS } from "./yaml-scalars.js";

/**
 * Alias uses allowed in one file, weighted by how many aliases each aliased node holds itself
 * (the `yaml` package's maxAliasCount). Generous for real files, which rarely use aliases, yet
 * an alias bomb ("billion laughs") is refused after a few thousand steps.
 */
export const MAX_YAML_ALIASES = 10_000;

class AliasBomb extends Error {}
/** An alias the `yaml` package could not resolve (no such anchor, a merge of a non-map). */
class BadAlias extends Error {}

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
export function readYamlFully(text: string, report: FileReport): SNode | null | undefined {
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
  const unknownTags = doc.warnings.filter((w) => w.code === "TAG_RESOLVE_FAILED");
  for (const w of unknownTags) {
    report.error(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)} (speky refuses unknown tags)`);
  }
  if (unknownTags.length > 0) return undefined;
  for (const w of doc.warnings) report.warning(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)}`);
  try {
    const root = new AstConverter(doc, pos, report).convert(doc.contents);
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
    if (!(e instanceof AliasBomb)) throw e;
    report.error(
      null,
      `too many YAML alias expansions (limit ${MAX_YAML_ALIASES}): refusing what looks like an alias bomb`,
    );
    return undefined;
  }
}

class AstConverter {
  /** Converted anchored nodes, shared by their aliases rather than copied. */
  private readonly anchors = new Map<string, SNode>();
  private aliasesChecked = false;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly pos: (offset: number) => Pos,
    private readonly report: FileReport,
  ) {}

  convert(node: unknown): SNode | null {
    if (node === null || node === undefined) return null;
    if (isScalar(node) && node.value === null && node.source === "" && !node.tag) return null;
    return this.node(node as YamlNode);
  }

  private node(node: YamlNode): SNode {
    if (isAlias(node)) return this.alias(node);
    const at = this.pos(node.range?.[0] ?? 0);
    let result: SNode;
    if (isMap(node)) result = this.map(node.items, at);
    else if (isSeq(node)) {
      result = { type: "seq", items: node.items.map((i) => this.item(i, at)), ...at };
    } else result = this.scalar(node as Scalar, at);
    if (node.anchor) this.anchors.set(node.anchor, result);
    return result;
  }

  /** An empty entry (`key:` or `-`) is a null at its key or list. */
  private item(node: unknown, parent: Pos): SNode {
    return this.convert(node) ?? scalar("null", null, parent.line, parent.column, "");
  }

  // speky:speky-ts#SPEC-SAFETY
  /** The node an alias names, shared, once the document passed the alias-bomb check. */
  private alias(node: Alias): SNode {
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
    return this.anchors.get(node.source)!;
  }

  private map(pairs: unknown[], at: Pos): SMap {
    const result: SMap = { type: "map", entries: [], ...at };
    const merged: SMap[] = [];
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const keyAt = keyNode?.range ? this.pos(keyNode.range[0]) : at;
      if (isScalar(keyNode) && typeof keyNode.value === "symbol") {
        merged.push(...this.mergeSources(pair.value, keyAt));
        continue;
      }
      const key = keyString(keyNode === null ? null : this.node(keyNode));
      const entry = { key, value: this.item(pair.value, keyAt), ...keyAt };
      // PyYAML keeps the first key's place and the last key's value.
      const first = result.entries.findIndex((e) => e.key === key);
      if (first < 0) result.entries.push(entry);
      else {
        this.report.warning(keyAt, `duplicate key '${key}' (the last one wins)`);
        result.entries[first] = entry;
      }
    }
    // `<<` merges: keys written in the map win, then earlier sources over later ones.
    for (const source of merged) {
      for (const entry of source.entries) {
        if (!entryOf(result, entry.key)) result.entries.push(entry);
      }
    }
    return result;
  }

  private mergeSources(value: unknown, at: Pos): SMap[] {
    const node = this.item(value, at);
    const sources = node.type === "seq" ? node.items : [node];
    return sources.filter((s): s is SMap => s.type === "map");
  }

  private scalar(node: Scalar, at: Pos): SNode {
    if (node.type === "PLAIN" && !node.tag) {
      // Typed by PyYAML's rules, not the `yaml` package's (see yaml-scalars.ts).
      return plainScalar(String(node.source), at.line, at.column);
    }
    return scalar(tagName(node.tag), node.value, at.line, at.column);
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
