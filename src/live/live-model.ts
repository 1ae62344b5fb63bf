// A model that follows the files while an agent edits them. Every change reloads the specs
// and rescans (the scan cache makes unchanged files cost a stat), then swaps the model in
// one assignment, so a call sees the old model or the new one, never a mix. Invalid specs
// keep the last good model in service, and the problem is reported until it is fixed.
import { EventEmitter } from "node:events";
import { watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { compareDiagnostics, hasErrors, type Diagnostic } from "../diagnostics.js";
import { loadModel, type ModelOptions } from "../model/load-model.js";
import type { Model } from "../model/model.js";

export interface Status {
  loaded_at: string;
  files: number;
  requirements: number;
  tests: number;
  code_references: number;
  /** Loader problems of the latest attempt (errors when the last good model is kept). */
  problems: Diagnostic[];
}

export interface LiveEvents {
  /** A new model took over; `idsChanged` when the set of requirement or test IDs differs. */
  swapped: [model: Model, idsChanged: boolean];
  /** The latest reload failed; the previous model stays. */
  rejected: [problems: Diagnostic[]];
}

const IGNORED_SEGMENTS = new Set([".git", "node_modules"]);

function sameIds(a: Model, b: Model): boolean {
  const equal = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return equal(a.requirementIds, b.requirementIds) && equal(a.testIds, b.testIds);
}

export class LiveModel extends EventEmitter<LiveEvents> {
  private model: Model;
  private problems: Diagnostic[];
  private loadedAt = new Date();
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private dirty = false;

  private constructor(
    private readonly paths: string[],
    private readonly options: ModelOptions,
    model: Model,
    diagnostics: Diagnostic[],
    readonly debounceMs: number,
  ) {
    super();
    this.model = model;
    this.problems = diagnostics;
  }

  /** Loads once; null model and the diagnostics when the first load fails. */
  static async open(
    paths: string[],
    options: ModelOptions = {},
    debounceMs = 100,
  ): Promise<{ live: LiveModel | null; diagnostics: Diagnostic[] }> {
    const { model, diagnostics } = await loadModel(paths, options);
    if (!model) return { live: null, diagnostics };
    return { live: new LiveModel(paths, options, model, diagnostics, debounceMs), diagnostics };
  }

  get current(): Model {
    return this.model;
  }

  /** True while the served model is older than a failed reload of the specs. */
  get stale(): boolean {
    return hasErrors(this.problems);
  }

  status(): Status {
    const m = this.model;
    return {
      loaded_at: this.loadedAt.toISOString(),
      files: m.specs.files.length + (m.scanStats?.files ?? 0),
      requirements: m.requirementIds.length,
      tests: m.testIds.length,
      code_references: m.codeReferences.length,
      problems: this.problems,
    };
  }

  /** Directories to watch: every manifest root and the folder of every file read. */
  private watchedDirectories(): string[] {
    const dirs = new Set<string>();
    for (const m of this.model.manifests) dirs.add(m.root);
    for (const f of this.model.specs.files) dirs.add(path.dirname(f));
    // A folder inside another watched (recursively) folder needs no watcher of its own.
    const sorted = [...dirs].sort();
    return sorted.filter((d) => !sorted.some((p) => p !== d && d.startsWith(p + path.sep)));
  }

  // speky:speky-ts#LIVE-WATCH
  startWatching(): void {
    this.stopWatching();
    for (const dir of this.watchedDirectories()) {
      try {
        const w = watch(dir, { recursive: true }, (_event, name) => {
          if (name && String(name).split(path.sep).some((s) => IGNORED_SEGMENTS.has(s))) return;
          this.schedule();
        });
        w.on("error", () => w.close());
        this.watchers.push(w);
      } catch {
        // A folder that vanished stops being watched; the next reload re-reads the tree.
      }
    }
  }

  stopWatching(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.reload();
    }, this.debounceMs);
  }

  /** Reloads now; concurrent requests coalesce into one more reload after the running one. */
  async reload(): Promise<void> {
    if (this.reloading) {
      this.dirty = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.dirty = false;
        await this.reloadOnce();
      } while (this.dirty);
    })();
    try {
      await this.reloading;
    } finally {
      this.reloading = null;
    }
  }

  private async reloadOnce(): Promise<void> {
    let result;
    try {
      result = await loadModel(this.paths, this.options);
    } catch (error) {
      const message = `reload failed: ${error instanceof Error ? error.message : String(error)}`;
      result = { model: null, diagnostics: [{ file: "", line: 0, column: 0, severity: "error" as const, message }] };
    }
    const { model, diagnostics } = result;
    this.problems = [...diagnostics].sort(compareDiagnostics);
    if (!model) {
      this.emit("rejected", this.problems);
      return;
    }
    const idsChanged = !sameIds(this.model, model);
    const rootsChanged = this.watchedDirectories().join("\n");
    this.model = model;
    this.loadedAt = new Date();
    if (this.watchers.length > 0 && this.watchedDirectories().join("\n") !== rootsChanged) this.startWatching();
    this.emit("swapped", model, idsChanged);
  }
}
