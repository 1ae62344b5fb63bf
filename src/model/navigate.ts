// From code to spec: which requirement or test does the code at this place carry a tag of?
// Answers from the model only; the path a client sends is never opened.
import path from "node:path";
import type { CodeReference } from "../scan/types.js";
import type { Model } from "./model.js";

export interface TagAtPlace {
  file: string;
  line: number;
  symbol: string | null;
  is_test: boolean;
  id: string;
  /** What the ID names; "unknown" for a tag naming no loaded ID. */
  kind: "requirement" | "test" | "unknown";
  short?: string;
  url?: string;
}

const toPosix = (p: string) => p.replace(/\\/g, "/");

/**
 * The absolute paths a client's `file` may mean. Displayed paths are relative to the root of
 * the manifest that owns the tag; a client may also send a path relative to another root
 * (the top project's, for a sub-project's file) or to the server's working directory, an
 * absolute path, `./x` or `a\\b`.
 */
function candidatePaths(model: Model, file: string, cwd: string): Set<string> {
  const given = toPosix(file);
  const candidates = new Set<string>();
  if (path.isAbsolute(file) || path.posix.isAbsolute(given)) candidates.add(path.resolve(file));
  else for (const base of [...model.manifests.map((m) => m.root), cwd]) candidates.add(path.resolve(base, given));
  return candidates;
}

function rootsByProject(model: Model): Map<string, string[]> {
  const roots = new Map<string, string[]>();
  for (const m of model.manifests) {
    const key = m.name.toLowerCase();
    roots.set(key, [...(roots.get(key) ?? []), m.root]);
  }
  return roots;
}

function describe(model: Model, ref: CodeReference): TagAtPlace {
  const item = model.byId.get(ref.id);
  return {
    file: ref.file,
    line: ref.line,
    symbol: ref.symbol,
    is_test: ref.is_test,
    id: ref.id,
    kind: item ? item.kind : "unknown",
    ...(item?.short ? { short: item.short } : {}),
    ...(ref.url ? { url: ref.url } : {}),
  };
}

/** Where the tagged thing starts: its first tag, or its definition if written above the tag. */
const startOf = (r: CodeReference) => Math.min(r.line, r.tag_line);

/**
 * The code references of `file` (every one, in line order), or with `line` the ones of the
 * tagged definition nearest at or above that line (all its tags), or the free tag there.
 */
// speky:speky-ts#MCP-FIND-CODE-REFERENCES
export function findCodeReferences(model: Model, file: string, line?: number, cwd = process.cwd()): TagAtPlace[] {
  const wanted = candidatePaths(model, file, cwd);
  const roots = rootsByProject(model);
  const allRoots = model.manifests.map((m) => m.root);
  const inFile = model.codeReferences.filter((r) =>
    (roots.get(r.project.toLowerCase()) ?? allRoots).some((root) => wanted.has(path.resolve(root, r.file))),
  );
  if (line === undefined) return inFile.map((r) => describe(model, r));
  let nearest = -1;
  for (const r of inFile) if (startOf(r) <= line && r.line > nearest) nearest = r.line;
  return inFile.filter((r) => r.line === nearest).map((r) => describe(model, r));
}
