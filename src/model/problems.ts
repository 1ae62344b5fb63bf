// What `speky check` and the `list_problems` tool report: dangling code tags (errors, with a
// suggestion), then the scanner's and the loader's warnings. One list, sorted.
import { compareDiagnostics, type Diagnostic, locatedAt } from "../diagnostics.js";
import { capPerFile } from "../loader/file-diagnostics.js";
import { shown } from "../quote.js";
import { IdSuggester } from "../text/suggest.js";
import type { Model } from "./model.js";
import { projectRoots, referencePath } from "./paths.js";
import { type ResultsPath, verificationProblems } from "./verification-problems.js";

export function danglingDiagnostics(model: Model): Diagnostic[] {
  if (model.danglingReferences.length === 0) return [];
  const suggester = new IdSuggester(model.byId.keys());
  const roots = projectRoots(model);
  const all = model.danglingReferences.map((ref) => {
    const suggestion = suggester.suggest(ref.id);
    const hint = suggestion ? `; did you mean ${shown(suggestion)}?` : "";
    const d: Diagnostic = {
      file: ref.file,
      line: ref.tag_line,
      column: ref.tag_column,
      severity: "error" as const,
      message: `tag speky:${ref.project}#${ref.id} names an unknown ID '${ref.id}'${hint}`,
    };
    const at = referencePath(roots, ref);
    return at === undefined ? d : locatedAt(d, at);
  });
  // One cause for every unknown ID of a file: a file of a million dangling tags gives a hundred lines and a count.
  return capPerFile(all, () => "unknown ID");
}

export function modelProblems(model: Model, loaderDiagnostics: readonly Diagnostic[] = [], resultsPath?: ResultsPath): Diagnostic[] {
  return [...danglingDiagnostics(model), ...model.scanDiagnostics, ...verificationProblems(model, resultsPath), ...loaderDiagnostics].sort(
    compareDiagnostics,
  );
}
