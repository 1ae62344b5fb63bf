// A model that follows the files while an agent edits them. A relevant change reloads the
// specs and rescans (the scan cache makes unchanged files cost a stat), then swaps the state
// in one assignment, so a call sees the old model or the new one, never a mix. Invalid specs
// keep the last good model in service, and the problem is reported until it is fixed.
import { EventEmitter } from "node:events";
import { statSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { compareDiagnostics, formatDiagnostic, hasErrors, type Diagnostic } from "../diagnostics.js";
import { loadModel, type ModelOptions } from "../model/load-model.js";
import type { Model } from "../model/model.js";
import { cacheDir } from "../scan/cache.js";
import { TreeWatcher, type WatchPlan } from "./watcher.js";

/** What one call sees: read once, at its start, as one object. */
export interface LiveState {
  readonly model: Model;
  /** When the served model was loaded. */
  readonly loadedAt: Date;
  /** Loader diagnostics of the latest load attempt: the served model's, or the failed reload's. */
  readonly problems: readonly Diagnostic[];
  /** True while the served model is older than specs that fail to load. */
  readonly stale: boolean;
}

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
  /** Something about watching the user should know (e.g. the watch budget is spent). */
  warning: [message: string];
}

/** Extensions a spec file matched by a manifest glob may have (the loader reads any name). */
const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".toml", ".json", ".csv"]);
/** A stream of changes cannot delay a reload longer than this. */
const MAX_DELAY_MS = 1000;

function sameIds(a: Model, b: Model): boolean {
  const equal = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return equal(a.requirementIds, b.requirementIds) && equal(a.testIds, b.testIds);
}

/** The directory part of a glob before its first dynamic segment ("src/**\/*.ts" → "src"). */
function globBase(pattern: string): string {
  return picomatch.scan(pattern).base || ".";
}

/** What a change must touch to matter, derived from one model. */
class Relevance {
  private readonly filesRead: Set<string>;
  private readonly specFolders: Set<string>;
  private readonly codeMatchers: { root: string; match: (rel: string) => boolean }[];
  /** Absolute files holding code references: removing a folder above one matters. */
  private readonly taggedFiles: string[];

  constructor(model: Model) {
    this.filesRead = new Set(model.specs.files.map((f) => path.resolve(f)));
    this.specFolders = new Set([...this.filesRead].map((f) => path.dirname(f)));
    this.codeMatchers = model.manifests
      .filter((m) => m.code_sources.length > 0)
      .map((m) => ({ root: m.root, match: picomatch(m.code_sources, { dot: true }) }));
    const roots = new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
    this.taggedFiles = model.codeReferences.flatMap((r) => {
      const root = roots.get(r.project.toLowerCase());
      return root ? [path.resolve(root, r.file)] : [];
    });
  }

  matters(abs: string): boolean {
    if (this.filesRead.has(abs) || this.specFolders.has(path.dirname(abs))) return true;
    if (SPEC_EXTENSIONS.has(path.extname(abs).toLowerCase())) return true;
    for (const { root, match } of this.codeMatchers) {
      const rel = path.relative(root, abs).split(path.sep).join("/");
      if (match(rel)) return true;
    }
    const stat = statSync(abs, { throwIfNoEntry: false });
    // A new folder may hold new sources or specs; a removed one may have held tagged code.
    if (stat?.isDirectory()) return true;
    if (!stat) {
      const prefix = abs + path.sep;
      return [...this.filesRead, ...this.taggedFiles].some((f) => f.startsWith(prefix));
    }
    return false;
  }
}

/** Directories to watch for a model: manifest roots and code_sources bases as trees, folders of files read. */
export function watchPlan(model: Model): WatchPlan {
  const trees = new Set<string>();
  for (const m of model.manifests) {
    trees.add(m.root);
    // A glob may reach outside its root ("../shared/**/*.py").
    for (const pattern of m.code_sources) trees.add(path.resolve(m.root, globBase(pattern)));
  }
  const folders = model.specs.files.map((f) => path.dirname(path.resolve(f)));
  const existing = (dirs: Iterable<string>) =>
    [...dirs].filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory() ?? false);
  return { trees: existing(trees), folders: existing(folders) };
}

export class LiveModel extends EventEmitter<LiveEvents> {
  private state: LiveState;
  private relevance: Relevance;
  private watcher: TreeWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the first change not yet reloaded was seen. */
  private pendingSince: number | null = null;
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
    this.state = Object.freeze({ model, loadedAt: new Date(), problems: diagnostics, stale: false });
    this.relevance = new Relevance(model);
  }

  /** Loads once; null and the diagnostics when the first load fails. */
  static async open(
    paths: string[],
    options: ModelOptions = {},
    debounceMs = 100,
  ): Promise<{ live: LiveModel | null; diagnostics: Diagnostic[] }> {
    const { model, diagnostics } = await loadModel(paths, options);
    if (!model || hasErrors(diagnostics)) return { live: null, diagnostics };
    return { live: new LiveModel(paths, options, model, diagnostics, debounceMs), diagnostics };
  }

  get current(): Model {
    return this.state.model;
  }

  /** The model with what goes with it, as one immutable object: read it once per call. */
  snapshot(): LiveState {
    return this.state;
  }

  /** True while the served model is older than a failed reload of the specs. */
  get stale(): boolean {
    return this.state.stale;
  }

  status(): Status {
    return statusOf(this.state);
  }

  get watching(): boolean {
    return this.watcher !== null;
  }

  /** Directories watched right now (for tests and --verbose). */
  watchedDirectories(): string[] {
    return this.watcher?.watchedDirectories() ?? [];
  }

  // speky:speky-ts#LIVE-WATCH
  startWatching(): void {
    if (this.watcher) return;
    this.watcher = new TreeWatcher(
      (abs) => this.changed(abs),
      (message) => this.emit("warning", message),
      // The scan cache is written on every reload: were it inside a watched tree, each
      // reload would cause the next one.
      [cacheDir()],
    );
    this.watcher.update(watchPlan(this.state.model));
  }

  stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pendingSince = null;
  }

  private changed(abs: string): void {
    let matters: boolean;
    try {
      matters = this.relevance.matters(abs);
    } catch {
      matters = true;
    }
    if (matters) this.schedule();
  }

  /** Debounced: a burst of changes makes one reload, at most MAX_DELAY_MS after its first change. */
  private schedule(): void {
    const now = Date.now();
    this.pendingSince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(this.debounceMs, this.pendingSince + MAX_DELAY_MS - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pendingSince = null;
      this.reload().catch((error: unknown) => this.emit("warning", `reload failed: ${String(error)}`));
    }, delay);
  }

  /** Reloads now; requests made meanwhile coalesce into one more reload after the running one. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.dirty = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.dirty = false;
          await this.reloadOnce();
        } while (this.dirty);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    let model: Model | null;
    let diagnostics: Diagnostic[];
    try {
      ({ model, diagnostics } = await loadModel(this.paths, this.options));
    } catch (error) {
      model = null;
      const message = `reload failed: ${error instanceof Error ? error.message : String(error)}`;
      diagnostics = [{ file: "", line: 0, column: 0, severity: "error", message }];
    }
    const problems = [...diagnostics].sort(compareDiagnostics);
    const previous = this.state;
    if (!model || hasErrors(problems)) {
      this.state = Object.freeze({ ...previous, problems, stale: true });
      this.emit("rejected", problems);
      return;
    }
    // The swap: one assignment of one frozen object.
    this.state = Object.freeze({ model, loadedAt: new Date(), problems, stale: false });
    this.relevance = new Relevance(model);
    this.watcher?.update(watchPlan(model));
    this.emit("swapped", model, !sameIds(previous.model, model));
  }
}

export function statusOf(state: LiveState): Status {
  const m = state.model;
  return {
    loaded_at: state.loadedAt.toISOString(),
    files: m.specs.files.length + (m.scanStats?.files ?? 0),
    requirements: m.requirementIds.length,
    tests: m.testIds.length,
    code_references: m.codeReferences.length,
    problems: [...state.problems],
  };
}

/** "specs/x.yaml:3:1: error: ... — serving the model loaded at <time>", or null when fresh. */
export function staleNote(state: LiveState): string | null {
  if (!state.stale) return null;
  const errors = state.problems.filter((d) => d.severity === "error");
  const first = errors[0] ? formatDiagnostic(errors[0]).replace(/^: /, "") : "the specification does not load";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? "s" : ""})` : "";
  return `${first}${more} — serving the model loaded at ${state.loadedAt.toISOString()}`;
}
