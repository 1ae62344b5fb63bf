// Where IDs are written in one spec file: each requirement's and test's `id`, and each ID
// named by a `ref`, `prereq` or comment `about`. The loader's own readers give the tree
// (with positions), so this reads a file exactly as the loader does.
import path from "node:path";
import { FileDiagnostics } from "../loader/file-diagnostics.js";
import { entryOf, type SMap, type SNode, type SScalar, stringValue } from "../loader/format/node.js";
import { readToml } from "../loader/toml/source.js";
import { readYaml } from "../loader/yaml/source.js";
import { splitLines, utf16Column } from "./text.js";

/** An ID written in a file: 0-based line, UTF-16 start and end on that line. */
export interface IdSpot {
  id: string;
  line: number;
  start: number;
  end: number;
}

export interface Definition extends IdSpot {
  kind: "requirement" | "test";
}

export type MentionField = "ref" | "prereq" | "about";

export interface Mention extends IdSpot {
  field: MentionField;
  /** What holds the mention. */
  owner: "requirement" | "test" | "comment";
}

export interface SpecFileIndex {
  kind: string | null;
  definitions: Definition[];
  /** The first definition of each ID. */
  byId: Map<string, Definition>;
  mentions: Mention[];
}

const empty = (): SpecFileIndex => ({ kind: null, definitions: [], byId: new Map(), mentions: [] });

export async function indexSpecText(file: string, text: string): Promise<SpecFileIndex> {
  const report = new FileDiagnostics(file, []);
  let root: SNode | null | undefined;
  try {
    root = path.extname(file).toLowerCase() === ".toml" ? readToml(text, report) : await readYaml(text, report);
  } catch {
    return empty();
  }
  if (root?.type !== "map") return empty();
  const kind = stringValue(entryOf(root, "kind")?.value) ?? null;
  const lines = splitLines(text);
  const index: SpecFileIndex = { ...empty(), kind };
  const spot = (node: SScalar, id: string): IdSpot => {
    const line = lines[node.line - 1] ?? "";
    let start = utf16Column(line, node.column);
    if (line[start] === '"' || line[start] === "'") start++;
    // A value written otherwise than plainly (a block scalar...) is marked at its start.
    const end = line.startsWith(id, start) ? start + id.length : start;
    return { id, line: node.line - 1, start, end };
  };
  const ids = (map: SMap, field: MentionField, owner: Mention["owner"]) => {
    const value = entryOf(map, field)?.value;
    const nodes = value?.type === "seq" ? value.items : value ? [value] : [];
    for (const node of nodes) {
      const id = stringValue(node);
      if (id !== undefined) index.mentions.push({ ...spot(node as SScalar, id), field, owner });
    }
  };
  if (kind === "requirements" || kind === "tests") {
    const owner = kind === "requirements" ? "requirement" : "test";
    const list = entryOf(root, kind)?.value;
    for (const node of list?.type === "seq" ? list.items : []) {
      if (node.type !== "map") continue;
      const idNode = entryOf(node, "id")?.value;
      const id = stringValue(idNode);
      if (id !== undefined) {
        const definition: Definition = { ...spot(idNode as SScalar, id), kind: owner };
        index.definitions.push(definition);
        if (!index.byId.has(id)) index.byId.set(id, definition);
      }
      ids(node, "ref", owner);
      if (owner === "test") ids(node, "prereq", owner);
    }
  } else if (kind === "comments") {
    const defaults = entryOf(root, "default")?.value;
    if (defaults?.type === "map") ids(defaults, "about", "comment");
    const list = entryOf(root, "comments")?.value;
    for (const node of list?.type === "seq" ? list.items : []) if (node.type === "map") ids(node, "about", "comment");
  }
  return index;
}

/** The spot of `index` covering a position, if any. */
export function spotAt<T extends IdSpot>(spots: readonly T[], line: number, character: number): T | undefined {
  return spots.find((s) => s.line === line && s.start <= character && character <= s.end);
}
