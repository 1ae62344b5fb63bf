// Checks that need everything loaded: unique IDs, and that every ref, prereq and comment
// `about` names a loaded ID of the right kind.
import type { Diagnostic, Severity } from "../diagnostics.js";
import { quote, shown } from "../quote.js";
import { IdSuggester } from "../text/suggest.js";
import type { FailedFile } from "./cause.js";
import type { Collected } from "./collect.js";
import { FileDiagnostics, formatPos } from "./file-diagnostics.js";
import type { Written } from "./manifest.js";
import type { Item, SourceLocation } from "./types.js";

/** Where the collected items and references were written, for the diagnostics about them. */
export interface Sources {
  /** Absolute path of the file of items[i] / references[i], when known. */
  itemPath(index: number): string | undefined;
  referencePath(index: number): string | undefined;
  /** A file as messages cite it (default: its displayed path). */
  cite(display: string, path: string | undefined): string;
}

const NO_SOURCES: Sources = { itemPath: () => undefined, referencePath: () => undefined, cite: (display) => display };

// speky:speky-ts#SPEC-VALIDATE
/**
 * Adds the problems found across all loaded files to diagnostics. An unknown ID that
 * `orphaned` maps to a file that failed to load is not reported but counted under that file
 * (the counts are returned): the failure is the one cause to show.
 */
export function validateReferences(
  collected: Collected,
  diagnostics: Diagnostic[],
  orphaned: ReadonlyMap<string, FailedFile> = new Map(),
  sources: Sources = NO_SOURCES,
): Map<FailedFile, number> {
  const followers = new Map<FailedFile, number>();
  // Capped per file like every other warning source (FileDiagnostics), each with its path recorded.
  const files = new Map<string, FileDiagnostics>();
  const report = (severity: Severity, at: SourceLocation, message: string, path: string | undefined) => {
    const key = `${at.file}\0${path ?? ""}`;
    let file = files.get(key);
    if (!file) files.set(key, (file = new FileDiagnostics(at.file, diagnostics, path)));
    file.add(severity, at, message);
  };

  // ID → index of its first definition in collected.items.
  const byId = new Map<string, number>();
  const items = collected.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const first = byId.get(item.id);
    if (first !== undefined) {
      const { loc } = items[first];
      const where = formatPos(sources.cite(loc.file, sources.itemPath(first)), loc);
      report("error", item.loc, `duplicate ID ${quote(item.id)} (first defined at ${where})`, sources.itemPath(i));
    } else byId.set(item.id, i);
  }

  // speky:speky-ts#SPEC-DID-YOU-MEAN
  // Built on the first unknown ID only: most loads have none.
  let suggester: IdSuggester | null = null;
  const didYouMean = (id: string) => {
    suggester ??= new IdSuggester(byId.keys());
    const suggestion = suggester.suggest(id);
    return suggestion === null ? "" : `; did you mean ${shown(suggestion)}?`;
  };
  const references = collected.references;
  for (let i = 0; i < references.length; i++) {
    const r = references[i];
    const index = byId.get(r.id);
    const target = index === undefined ? undefined : items[index];
    const cause = target ? undefined : orphaned.get(r.id);
    if (cause !== undefined) {
      followers.set(cause, (followers.get(cause) ?? 0) + 1);
    } else if (!target) {
      const wanted = r.field === "prereq" ? "no test or requirement" : "no requirement or test";
      const at = sources.referencePath(i);
      const what = r.field === "about" ? "comment about unknown ID" : `unknown ${r.field}`;
      report("error", r, `${what} ${quote(r.id)} (${wanted} has this ID)${didYouMean(r.id)}`, at);
    } else if (r.field === "ref" && target.kind === "test") {
      report("warning", r, `ref ${quote(r.id)} names a test, not a requirement`, sources.referencePath(i));
    } else if (r.field === "prereq" && target.kind === "requirement") {
      report("warning", r, `prereq ${quote(r.id)} names a requirement, not a test`, sources.referencePath(i));
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
