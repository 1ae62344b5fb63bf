// Errors in order of cause. A file that fails to load (a YAML typo) takes its IDs with it, so
// every ref, prereq and comment naming them is an error too: the typo would come out 15th of
// 33. Instead the failed file's own errors come first, and the errors that only follow from
// the IDs it would have defined are counted in one line after them.
import { absolutePathOf, compareDiagnostics, compareStrings, type Diagnostic, locatedAt } from "../diagnostics.js";
import { plural } from "../quote.js";

export interface FailedFile {
  /** Displayed path. */
  file: string;
  /** Its text, from which the IDs it would have defined are read back. */
  text: string;
  /** Absolute path: two failed files of two projects can have the same displayed path. */
  path?: string;
}

// `id: X` / `- id: X` (YAML), `id = "X"` (TOML), quoted or not: a line-level reading that needs
// no parser, since the parser is what failed.
const ID_LINE = /^[ \t]*(?:-[ \t]+)?["']?id["']?[ \t]*[:=][ \t]*["']?([^"'#\s,}\]]+)/gm;

/** The IDs a file that failed to load would most likely have defined. */
export function idsWrittenIn(text: string): string[] {
  return [...text.matchAll(ID_LINE)].map((m) => m[1]);
}

/**
 * For each ID that no loaded file defines but a failed file shows, that file: an error about
 * that ID follows from the failure.
 */
export function orphanedIds(failed: readonly FailedFile[], loaded: ReadonlySet<string>): Map<string, FailedFile> {
  const owner = new Map<string, FailedFile>();
  for (const f of failed) {
    for (const id of idsWrittenIn(f.text)) if (!loaded.has(id) && !owner.has(id)) owner.set(id, f);
  }
  return owner;
}

/** Whether d is about the failed file f (by path when both have one). */
function isAbout(d: Diagnostic, f: FailedFile): boolean {
  const at = absolutePathOf(d);
  return at !== undefined && f.path !== undefined ? at === f.path : d.file === f.file;
}

/**
 * Sorted diagnostics, the failed files' own first (those some errors followed from), each
 * followed by the line counting those errors: `leading`, then the `rest`.
 */
// speky:speky-ts#INSTALL-CAUSE-FIRST
export function causeFirst(
  diagnostics: readonly Diagnostic[],
  followers: ReadonlyMap<FailedFile, number>,
  cite: (f: FailedFile) => string = (f) => f.file,
): { leading: Diagnostic[]; rest: Diagnostic[] } {
  const sorted = [...diagnostics].sort(compareDiagnostics);
  if (followers.size === 0) return { leading: [], rest: sorted };
  const causes = [...followers.keys()].sort((a, b) => compareStrings(a.file, b.file) || compareStrings(a.path ?? "", b.path ?? ""));
  const first: Diagnostic[] = [];
  for (const f of causes) {
    first.push(...sorted.filter((d) => isAbout(d, f)));
    const n = followers.get(f)!;
    const line: Diagnostic = {
      file: f.file,
      line: 0,
      column: 0,
      severity: "error",
      message: `${plural(n, "more error")} ${n === 1 ? "names" : "name"} IDs of ${cite(f)}, which failed to load`,
    };
    first.push(f.path === undefined ? line : locatedAt(line, f.path));
  }
  return { leading: first, rest: sorted.filter((d) => !causes.some((f) => isAbout(d, f))) };
}
