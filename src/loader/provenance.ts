// Where each loaded thing came from, for what a load with errors still tells: the absolute path
// of the file of each item and reference (two projects' files can share a displayed path), how
// messages cite a file, and which manifests and files failed (speky check then checks the tags
// of the rest, src/model/tags-despite-errors.ts).
import type { FailedFile } from "./cause.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import type { FileName, Manifest, PartialLoad } from "./types.js";

// A manifest's kind and name read from its text when its parser failed (as cause.ts reads IDs).
const PROJECT_KIND = /^kind[ \t]*[:=][ \t]*["']?project["']?[ \t]*(#.*)?$/m;
const PROJECT_NAME = /^name[ \t]*[:=][ \t]*["']?([A-Za-z0-9_.-]+)/m;

export class Provenance {
  /** Where each file's items and references start (files are read one after the other). */
  private readonly marks: { items: number; references: number; path: string }[] = [];
  /** Files that could not be read at all. */
  readonly unread: FileName[] = [];
  /** Each manifest with its report: one with errors has its tags left unchecked. */
  private readonly manifests: { manifest: Manifest; report: FileDiagnostics }[] = [];

  constructor(private readonly citeOption: ((absPath: string, display: string) => string) | undefined) {}

  /** A file as messages name it. */
  cite(display: string, absPath: string | undefined): string {
    return this.citeOption && absPath !== undefined ? this.citeOption(absPath, display) : display;
  }

  /** The file at `path` starts: the next items and references are its own. */
  startFile(items: number, references: number, path: string): void {
    this.marks.push({ items, references, path });
  }

  addManifest(manifest: Manifest, report: FileDiagnostics): void {
    this.manifests.push({ manifest, report });
  }

  /** The absolute path of the file of items[index] (or references[index]). */
  pathAt(index: number, key: "items" | "references"): string | undefined {
    const marks = this.marks;
    let low = 0;
    let high = marks.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (marks[mid][key] <= index) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found < 0 ? undefined : marks[found].path;
  }

  /** The manifests without errors of their own, and the failed ones (those whose text did not parse told by it). */
  manifestsByOutcome(failed: readonly FailedFile[]): { ok: Manifest[]; failed: PartialLoad["failedManifests"] } {
    const ok: Manifest[] = [];
    const failedManifests: PartialLoad["failedManifests"] = [];
    for (const { manifest, report } of this.manifests) {
      if (report.errors === 0) ok.push(manifest);
      else failedManifests.push({ file: manifest.file, path: manifest.absFile, name: manifest.name || null });
    }
    for (const f of failed) {
      if (f.path === undefined || this.manifests.some((m) => m.manifest.absFile === f.path) || !PROJECT_KIND.test(f.text)) continue;
      failedManifests.push({ file: f.file, path: f.path, name: PROJECT_NAME.exec(f.text)?.[1] ?? null });
    }
    return { ok, failed: failedManifests };
  }
}
