// TOML text to a positioned tree: smol-toml for the values (and syntax errors), the position
// walker for where each value was written.
import { parse, TomlError } from "smol-toml";
import { TextPositions } from "../../text-positions.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { type Pos, type SEntry, type SNode, scalar } from "../format/node.js";
import { MAX_TOML_DEPTH, tomlDepthExcess } from "./depth.js";
import { locateToml, PATH_SEP, type TomlSpot } from "./positions.js";

/**
 * The tree of a TOML file; null when the file has no content; undefined when it cannot be
 * read (the reasons are reported).
 */
export function readToml(text: string, report: FileDiagnostics): SNode | null | undefined {
  const excess = tomlDepthExcess(text);
  if (excess) {
    report.error(
      new TextPositions(text).at(excess.offset),
      `TOML: keys, tables and arrays nested more than ${MAX_TOML_DEPTH} levels deep here: refused`,
    );
    return undefined;
  }
  let data: Record<string, unknown>;
  try {
    data = parse(text);
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const message = e.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    report.error({ line: e.line, column: e.column }, `TOML syntax error: ${message}`);
    return undefined;
  }
  if (Object.keys(data).length === 0) return null;
  return new TomlConverter(text).node(data, "", { line: 1, column: 1 });
}

class TomlConverter {
  private readonly spots: Map<string, TomlSpot>;
  private readonly positions: TextPositions;

  constructor(text: string) {
    this.spots = locateToml(text);
    this.positions = new TextPositions(text);
  }

  node(value: unknown, path: string, at: Pos): SNode {
    if (Array.isArray(value)) {
      return { type: "seq", items: value.map((v, i) => this.child(v, path, String(i), at).value), ...at };
    }
    if (value instanceof Date) return scalar("timestamp", value, at.line, at.column);
    if (typeof value === "object" && value !== null) {
      const entries: SEntry[] = [];
      for (const [key, v] of Object.entries(value)) {
        const { keyAt, value: child } = this.child(v, path, key, at);
        entries.push({ key, value: child, ...keyAt });
      }
      return { type: "map", entries, ...at };
    }
    if (typeof value === "string") return scalar("str", value, at.line, at.column);
    if (typeof value === "boolean") return scalar("bool", value, at.line, at.column);
    const float = this.spots.get(path)?.float || !Number.isInteger(value);
    return scalar(float ? "float" : "int", value, at.line, at.column);
  }

  private child(value: unknown, parent: string, key: string, parentAt: Pos) {
    const path = parent === "" ? key : parent + PATH_SEP + key;
    const spot = this.spots.get(path);
    const at = spot ? this.pos(spot.value) : parentAt;
    return { keyAt: spot ? this.pos(spot.key) : at, value: this.node(value, path, at) };
  }

  private pos(offset: number): Pos {
    return this.positions.at(offset);
  }
}
