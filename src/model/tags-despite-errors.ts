// A spec error must not hide the code-tag findings of the same run (fix the YAML, run again,
// and new errors appear). When the specs have errors, the manifests that loaded without errors
// of their own are scanned all the same, and a tag is an error when it names an ID defined
// nowhere, nor in a file that failed to load (that one follows from the failure). When that
// cannot be told, one line says which tags were not checked and why. With test results, the
// failed tests of the manifests that loaded are errors as when every spec loads.
import { type Diagnostic, locatedAt } from "../diagnostics.js";
import type { FileName, PartialLoad } from "../loader/types.js";
import { quote } from "../quote.js";
import { type ModelOptions, type ScanHooks, scanSpecs } from "./load-model.js";
import { danglingDiagnostics } from "./problems.js";
import { type ResultsPath, verificationProblems } from "./verification-problems.js";

function note(f: FileName, message: string): Diagnostic {
  return locatedAt({ file: f.file, line: 0, column: 0, severity: "warning", message }, f.path);
}

// speky:speky-ts#CHECK-TAGS-DESPITE-ERRORS
/** The tag findings of a load that failed, and a line for each set of tags left unchecked. */
export async function tagProblemsDespiteErrors(
  partial: PartialLoad,
  options: ModelOptions,
  hooks: ScanHooks,
  cite: (absPath: string, display: string) => string,
): Promise<Diagnostic[]> {
  const scanned = partial.specs.manifests.filter((m) => m.code_sources.length > 0);
  if (scanned.length === 0 && partial.failedManifests.length === 0) return [];
  if (partial.unread.length > 0) {
    // Any tag may name an ID of the file that could not be read.
    const [first] = partial.unread;
    return [
      note(first, `code tags were not checked: ${cite(first.path, first.file)} could not be read, so the IDs it defines are unknown`),
    ];
  }
  const out = partial.failedManifests.map((m) =>
    note(m, `code tags ${m.name === null ? "of this manifest" : `of project ${quote(m.name)}`} were not checked: this manifest has errors`),
  );
  if (scanned.length === 0) return out;
  const model = await scanSpecs(partial.specs, options, hooks);
  const dangling = danglingDiagnostics(model);
  for (const [i, ref] of model.danglingReferences.entries()) if (!partial.orphaned.has(ref.id)) out.push(dangling[i]);
  // A spec error in one project never hides another project's failed tests (with results).
  const resultsPath: ResultsPath = (f) => cite(f.abs, f.file);
  return [...out, ...model.scanDiagnostics, ...verificationProblems(model, resultsPath)];
}
