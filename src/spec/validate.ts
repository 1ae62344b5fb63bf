// Checks that need everything loaded: unique IDs, and that every ref, prereq and comment
// `about` names a loaded ID of the right kind.
import type { Diagnostic, Severity } from "../diagnostics.js";
import type { Collected } from "./collect.js";
import type { Written } from "./manifest.js";
import { formatPos, oneLine, type FileReport } from "./report.js";
import type { Item, SourceLocation } from "./types.js";

// speky:speky-ts#SPEC-VALIDATE
/** Adds the problems found across all loaded files to diagnostics. */
export function validateReferences(collected: Collected, diagnostics: Diagnostic[]): void {
  const report = (severity: Severity, at: SourceLocation, message: string) =>
    diagnostics.push({ file: at.file, line: at.line, column: at.column, severity, message: oneLine(message) });

  const byId = new Map<string, Item>();
  for (const item of collected.items) {
    const first = byId.get(item.id);
    if (first) {
      report("error", item.loc, `duplicate ID '${item.id}' (first defined at ${formatPos(first.loc.file, first.loc)})`);
    } else byId.set(item.id, item);
  }

  for (const r of collected.references) {
    const target = byId.get(r.id);
    if (!target) {
      const wanted = r.field === "prereq" ? "no test or requirement" : "no requirement or test";
      const what = r.field === "about" ? "comment about unknown ID" : `unknown ${r.field}`;
      report("error", r, `${what} '${r.id}' (${wanted} has this ID)`);
    } else if (r.field === "ref" && target.kind === "test") {
      report("warning", r, `ref '${r.id}' names a test, not a requirement`);
    } else if (r.field === "prereq" && target.kind === "requirement") {
      report("warning", r, `prereq '${r.id}' names a requirement, not a test`);
    }
  }
}

/** A coverage category without requirements in its project is most likely a typo. */
export function checkCoverageCategories(
  project: string,
  categories: Written[],
  report: FileReport,
  requirements: readonly Item[],
): void {
  const present = new Set(requirements.filter((r) => r.project === project).map((r) => r.category));
  for (const category of categories) {
    if (!present.has(category.text)) {
      report.warning(category, `coverage category '${category.text}' has no requirement in project '${project}'`);
    }
  }
}
