// What `speky check` and the `list_problems` tool report: dangling code tags (errors, with a
// suggestion), then the scanner's and the loader's warnings. One list, sorted.
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import { capPerFile } from "../loader/file-diagnostics.js";
import type { Model } from "./model.js";
import { suggestId } from "./suggest.js";
import { verificationProblems } from "./verification-problems.js";

export function danglingDiagnostics(model: Model): Diagnostic[] {
  const known = [...model.byId.keys()];
  const all = model.danglingReferences.map((ref) => {
    const suggestion = suggestId(ref.id, known);
    const hint = suggestion ? `; did you mean ${suggestion}?` : "";
    return {
      file: ref.file,
      line: ref.tag_line,
      column: ref.tag_column,
      severity: "error" as const,
      message: `tag speky:${ref.project}#${ref.id} names an unknown ID '${ref.id}'${hint}`,
    };
  });
  // One cause for every unknown ID of a file: a file of a million dangling tags gives a hundred lines and a count.
  return capPerFile(all, () => "unknown ID");
}

export function modelProblems(model: Model, loaderDiagnostics: readonly Diagnostic[] = []): Diagnostic[] {
  return [...danglingDiagnostics(model), ...model.scanDiagnostics, ...verificationProblems(model), ...loaderDiagnostics].sort(
    compareDiagnostics,
  );
}
