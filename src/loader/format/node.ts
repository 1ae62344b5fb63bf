// A format-neutral document tree: YAML and TOML are both turned into this, so that one
// validator, with one set of messages, serves both formats and every node knows where it
// was written.

export interface Pos {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** The resolved type of a scalar, as the source format typed it (YAML 1.1 rules for YAML). */
export type ScalarTag = "str" | "int" | "float" | "bool" | "null" | "timestamp" | "binary";

export interface SScalar extends Pos {
  type: "scalar";
  tag: ScalarTag;
  value: unknown;
  /** Unquoted YAML source text, kept for non-string scalars so messages can suggest quoting. */
  raw?: string;
}

export interface SSeq extends Pos {
  type: "seq";
  items: SNode[];
}

export interface SEntry extends Pos {
  /** Position is the key's. */
  key: string;
  value: SNode;
}

export interface SMap extends Pos {
  type: "map";
  /** In order, keys unique. An array: maps here are small and many, and Maps cost more. */
  entries: SEntry[];
}

export type SNode = SScalar | SSeq | SMap;

export function scalar(tag: ScalarTag, value: unknown, line: number, column: number, raw?: string): SScalar {
  return { type: "scalar", tag, value, line, column, raw };
}

export function entryOf(map: SMap, key: string): SEntry | undefined {
  for (const entry of map.entries) if (entry.key === key) return entry;
  return undefined;
}

export function isNull(node: SNode): boolean {
  return node.type === "scalar" && node.tag === "null";
}

export function stringValue(node: SNode | undefined): string | undefined {
  return node?.type === "scalar" && node.tag === "str" ? (node.value as string) : undefined;
}

/** "a list", "an integer (42)"...: what a node is, for "must be X, got Y" messages. */
export function describe(node: SNode): string {
  if (node.type === "map") return "a mapping";
  if (node.type === "seq") return "a list";
  switch (node.tag) {
    case "str":
      return "a string";
    case "null":
      return "nothing";
    case "int":
      return `an integer (${String(node.value)})`;
    case "float":
      return `a number (${String(node.value)})`;
    case "bool":
      return `a boolean (${String(node.value)})`;
    case "timestamp":
      return `a date (${node.raw ?? (node.value as Date).toISOString()})`;
    case "binary":
      return "binary data";
  }
}

/**
 * For an unquoted YAML scalar that did not stay text (`yes`, `1.0`, `2025-01-01`), how to
 * keep it as text; empty for anything else.
 */
export function quoteHint(node: SNode): string {
  if (node.type !== "scalar" || node.tag === "str" || !node.raw) return "";
  return `; write it in quotes to keep it as text: "${node.raw}"`;
}
