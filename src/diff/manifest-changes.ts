// Which manifests changed what is traced (docs/changes.md, "Manifests"): each manifest of either
// side, by its path from the repository's top, and the top-level keys whose values differ
// (`root_directory`, `code_sources`, `files`, `coverage_categories`, `source_links`,
// `test_results`, ... every key, as written, so that a key this version does not know is shown
// too). A manifest on one side only has every key of it added or removed. The manifests were read
// by the loader already (each side loaded): read again here from the side's tree, with its bounds.
import { compareStrings } from "../diagnostics.js";
import { FileDiagnostics } from "../loader/file-diagnostics.js";
import type { SNode } from "../loader/format/node.js";
import { readToml } from "../loader/toml/source.js";
import { readYaml } from "../loader/yaml/source.js";
import type { ManifestChange } from "./shapes.js";
import type { Side } from "./sides.js";

/** A node's value without its positions, maps by key: equal values compare equal. */
function plainValue(node: SNode): unknown {
  if (node.type === "scalar") return [node.tag, node.value instanceof Date ? node.value.toISOString() : node.value];
  if (node.type === "seq") return node.items.map(plainValue);
  return node.entries.map((e): [string, unknown] => [e.key, plainValue(e.value)]).sort(([a], [b]) => compareStrings(a, b));
}

/** Each top-level key's value as comparable text; empty when the manifest is not there or not readable. */
async function keysOf(side: Side, file: string): Promise<Map<string, string>> {
  const text = side.text(file);
  const keys = new Map<string, string>();
  if (text === null) return keys;
  const report = new FileDiagnostics(file, []);
  let root: SNode | null | undefined;
  try {
    root = /\.toml$/i.test(file) ? readToml(text, report) : await readYaml(text, report);
  } catch {
    root = undefined;
  }
  if (root?.type !== "map") return keys;
  for (const e of root.entries) keys.set(e.key, JSON.stringify(plainValue(e.value)));
  return keys;
}

/** The side's manifests: repository path → project name. */
function manifestsOf(side: Side): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of side.result.model?.manifests ?? []) {
    const file = side.repoPath(m.absFile);
    if (file !== null && !out.has(file)) out.set(file, m.name);
  }
  return out;
}

// speky:speky-ts#DIFF-MANIFESTS
export async function manifestChanges(base: Side, head: Side): Promise<ManifestChange[]> {
  const before = manifestsOf(base);
  const after = manifestsOf(head);
  const out: ManifestChange[] = [];
  for (const file of [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings)) {
    const [was, now] = await Promise.all([
      before.has(file) ? keysOf(base, file) : new Map(),
      after.has(file) ? keysOf(head, file) : new Map(),
    ]);
    const project = after.get(file) ?? before.get(file)!;
    const change = !before.has(file) ? "added" : !after.has(file) ? "removed" : "changed";
    const keys = [...new Set([...was.keys(), ...now.keys()])].filter((k) => was.get(k) !== now.get(k)).sort(compareStrings);
    if (keys.length > 0) out.push({ file, project, change, keys });
  }
  return out;
}
