// Checks that need everything loaded: unique IDs, and that every ref, prereq and comment
// `about` names a loaded ID of the right kind.
import type { Diagnostic, Severity } from "../diagnostics.js";
import { quote } from "../quote.js";
import type { Collected } from "./collect.js";
import { FileDiagnostics, formatPos } from "./file-diagnostics.js";
import type { Written } from "./manifest.js";
import type { Item, SourceLocation } from "./types.js";

// speky:speky-ts#SPEC-VALIDATE
/**
 * Adds the problems found across all loaded files to diagnostics. An unknown ID that
 * `orphaned` maps to a file that failed to load is not reported but counted under that file
 * (the counts are returned): the failure is the one cause to show.
 */
export function validateReferences(
  collected: Collected,
  diagnostics: Diagnostic[],
  orphaned: ReadonlyMap<string, string> = new Map(),
): Map<string, number> {
  const followers = new Map<string, number>();
  // Capped per file like every other warning source (FileDiagnostics).
  const files = new Map<string, FileDiagnostics>();
  const report = (severity: Severity, at: SourceLocation, message: string) => {
    let file = files.get(at.file);
    if (!file) files.set(at.file, (file = new FileDiagnostics(at.file, diagnostics)));
    file.add(severity, at, message);
  };

  const byId = new Map<string, Item>();
  for (const item of collected.items) {
    const first = byId.get(item.id);
    if (first) {
      report("error", item.loc, `duplicate ID ${quote(item.id)} (first defined at ${formatPos(first.loc.file, first.loc)})`);
    } else byId.set(item.id, item);
  }

  for (const r of collected.references) {
    const target = byId.get(r.id);
    const cause = target ? undefined : orphaned.get(r.id);
    if (cause !== undefined) {
      followers.set(cause, (followers.get(cause) ?? 0) + 1);
    } else if (!target) {
      const wanted = r.field === "prereq" ? "no test or requirement" : "no requirement or test";
      const what = r.field === "about" ? "comment about unknown ID" : `unknown ${r.field}`;
      report("error", r, `${what} ${quote(r.id)} (${wanted} has this ID)`);
    } else if (r.field === "ref" && target.kind === "test") {
      report("warning", r, `ref ${quote(r.id)} names a test, not a requirement`);
    } else if (r.field === "prereq" && target.kind === "requirement") {
      report("warning", r, `prereq ${quote(r.id)} names a requirement, not a test`);
    }
  }
  return followers;
}

/** A coverage category without requirements in its project is most likely a typo. */
export function checkCoverageCategories(
  project: string,
  categories: Written[],
  report: FileDiagnostics,
  requirements: readonly Item[],
): void {
  const present = new Set(requirements.filter((r) => r.project === project).map((r) => r.category));
  for (const category of categories) {
    if (!present.has(category.text)) {
      report.warning(category, `coverage category ${quote(category.text)} has no requirement in project ${quote(project)}`);
    }
  }
}
