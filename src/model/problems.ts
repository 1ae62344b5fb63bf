// What `speky check` and the `list_problems` tool report: dangling code tags (errors, with a
// suggestion), then the scanner's and the loader's warnings. One list, sorted.
import path from "node:path";
import { compareDiagnostics, type Diagnostic, locatedAt } from "../diagnostics.js";
import { shown } from "../quote.js";
import type { Model } from "./model.js";
import { IdSuggester } from "./suggest.js";

export function danglingDiagnostics(model: Model): Diagnostic[] {
  if (model.danglingReferences.length === 0) return [];
  const suggester = new IdSuggester(model.byId.keys());
  const roots = new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
  return model.danglingReferences.map((ref) => {
    const suggestion = suggester.suggest(ref.id);
    const hint = suggestion ? `; did you mean ${shown(suggestion)}?` : "";
    const d: Diagnostic = {
      file: ref.file,
      line: ref.tag_line,
      column: ref.tag_column,
      severity: "error" as const,
      message: `tag speky:${ref.project}#${ref.id} names an unknown ID '${ref.id}'${hint}`,
    };
    // The code reference's file is relative to the root of the manifest its tag names.
    const root = roots.get(ref.project.toLowerCase());
    return root === undefined ? d : locatedAt(d, path.resolve(root, ref.file));
  });
}

export function modelProblems(model: Model, loaderDiagnostics: readonly Diagnostic[] = []): Diagnostic[] {
  return [...danglingDiagnostics(model), ...model.scanDiagnostics, ...loaderDiagnostics].sort(compareDiagnostics);
}
