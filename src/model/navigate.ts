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
}

/** The displayed form of a path a client may send as absolute, `./x` or `a\\b`. */
function candidatePaths(model: Model, file: string): Set<string> {
  const slashed = file.replace(/\\/g, "/");
  const names = new Set([path.posix.normalize(slashed)]);
  if (path.isAbsolute(file)) {
    for (const m of model.manifests) names.add(path.relative(m.root, file).split(path.sep).join("/"));
  }
  return names;
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
  };
}

// speky:speky-ts#MCP-FIND-CODE-REFERENCES
export function findCodeReferences(model: Model, file: string, line?: number): TagAtPlace[] {
  const names = candidatePaths(model, file);
  const inFile = model.codeReferences.filter((r) => names.has(r.file));
  if (line === undefined) return inFile.map((r) => describe(model, r));
  // The references nearest above the line: every tag of that one definition.
  let nearest = -1;
  for (const r of inFile) if (r.line <= line && r.line > nearest) nearest = r.line;
  return inFile.filter((r) => r.line === nearest).map((r) => describe(model, r));
}
