// A model that follows the files while an agent edits them. A relevant change reloads the
// specs and rescans (the scan cache makes unchanged files cost a stat), then swaps the state
// in one assignment, so a call sees the old model or the new one, never a mix. Invalid specs
// keep the last good model in service, and the problem is reported until it is fixed.
//
// Opened with `background: true` (the MCP server, the language server), it serves the specs as
// soon as they load: the first scan of the code sources runs afterwards, sharing the thread,
// and `state.scanning` tells its progress until its model (with code references) takes over.
import { EventEmitter } from "node:events";
import { compareDiagnostics, type Diagnostic, hasErrors } from "../diagnostics.js";
import { cacheDir } from "../fs/cache-dir.js";
import { loadSpecs } from "../loader/load.js";
import type { SpecSet } from "../loader/types.js";
import { loadModel, type ModelOptions, type ScanHooks, scanSpecs, withResults } from "../model/load-model.js";
import { buildModel, type Model } from "../model/model.js";
import { Debounce } from "./debounce.js";
import { sameModel } from "./same-model.js";
import { type LiveEvents, type LiveState, type OpenSettings, ScanProgress, type Status, statusOf } from "./state.js";
import { Relevance, watchPlan } from "./watch-plan.js";
import { TreeWatcher } from "./watcher.js";

/** A stream of changes cannot delay a reload longer than this. */
const MAX_DELAY_MS = 1000;

function sameIds(a: Model, b: Model): boolean {
  const equal = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return equal(a.requirementIds, b.requirementIds) && equal(a.testIds, b.testIds);
}

export class LiveModel extends EventEmitter<LiveEvents> {
  private state: LiveState;
  private relevance: Relevance;
  private watcher: TreeWatcher | null = null;
  private readonly debounce: Debounce;
  private reloading: Promise<void> | null = null;
  private dirty = false;
  /** Only results files changed since the last reload: they are read again, nothing else. */
  private resultsOnly = true;

  private readonly firstScan: Promise<void>;
  /** The catch-up after the watch was set up (startWatching); resolved when there is none. */
  private caughtUp: Promise<void> = Promise.resolve();
  /** Reloads begun so far (the catch-up is needed only if none began once everything was watched). */
  private loadsBegun = 0;

  private constructor(
    private readonly paths: string[],
    private readonly options: ModelOptions,
    model: Model,
    diagnostics: Diagnostic[],
    debounceMs: number,
    scanning: ScanProgress | null,
  ) {
    super();
    this.state = Object.freeze({ model, loadedAt: new Date(), problems: diagnostics, stale: false, scanning });
    this.relevance = new Relevance(model, options);
    this.debounce = new Debounce(debounceMs, MAX_DELAY_MS);
    this.firstScan = scanning?.finished ?? Promise.resolve();
  }

  /**
   * Loads the specs, and scans the code sources before resolving or (`background`) after;
   * null and the diagnostics when the specs do not load.
   */
  static async open(
    paths: string[],
    options: ModelOptions = {},
    settings: OpenSettings = {},
  ): Promise<{ live: LiveModel | null; diagnostics: Diagnostic[] }> {
    const debounceMs = settings.debounceMs ?? 100;
    if (!settings.background) {
      const { model, diagnostics } = await loadModel(paths, options, { cooperative: true });
      if (!model || hasErrors(diagnostics)) return { live: null, diagnostics };
      return { live: new LiveModel(paths, options, model, diagnostics, debounceMs, null), diagnostics };
    }
    const loaded = await loadSpecs(paths, options);
    // The loader's order: sorted, a failed file's errors first (src/loader/cause.ts).
    const diagnostics = [...loaded.diagnostics];
    if (!loaded.specs || hasErrors(diagnostics)) return { live: null, diagnostics };
    const progress = new ScanProgress();
    const live = new LiveModel(paths, options, buildModel(loaded.specs, null), diagnostics, debounceMs, progress);
    const scan = () => live.scanInBackground(loaded.specs!, progress, settings.afterWalk);
    if (settings.scanAfter) void settings.scanAfter.then(scan);
    else scan();
    return { live, diagnostics };
  }

  /** Resolves once the first scan of the code sources is served (at once when it was done before `open` resolved). */
  whenScanned(): Promise<void> {
    return this.firstScan;
  }

  /**
   * The first scan runs as a reload would: a change seen meanwhile reloads once it is done.
   * A scan that fails leaves the specs served, with the failure among the problems.
   */
  // speky:speky-ts#MCP-BACKGROUND-SCAN
  private scanInBackground(specs: SpecSet, progress: ScanProgress, afterWalk?: (total: number) => Promise<void>): void {
    const hooks: ScanHooks = { cooperative: true, onProgress: (done, total) => progress.update(done, total), afterWalk };
    this.run(async () => {
      let model: Model | null = null;
      let problems = this.state.problems;
      try {
        model = await scanSpecs(specs, this.options, hooks);
      } catch (error) {
        const message = `scan failed: ${error instanceof Error ? error.message : String(error)}`;
        problems = [...problems, { file: "", line: 0, column: 0, severity: "error" as const, message }].sort(compareDiagnostics);
      }
      // Same specs, same load time: only the code references (and scanner findings) are new.
      this.state = Object.freeze({ ...this.state, ...(model ? { model } : {}), problems, scanning: null });
      if (model) this.relevance = new Relevance(model, this.options);
      progress.end();
      this.emit("scanned", this.state.model);
    }).catch((error: unknown) => this.emit("warning", `scan failed: ${String(error)}`));
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

  /** Resolves once every folder is watched and the catch-up that follows is done (tests, --verbose). */
  async watchSettled(): Promise<void> {
    await this.caughtUp;
    await this.watcher?.settled();
  }

  /** Directories watched right now (for tests and --verbose). */
  watchedDirectories(): string[] {
    return this.watcher?.watchedDirectories() ?? [];
  }

  // speky:speky-ts#LIVE-WATCH
  startWatching(): void {
    if (this.watcher) return;
    const watcher = new TreeWatcher(
      (abs) => this.changed(abs),
      (message) => this.emit("warning", message),
      // The scan cache is written on every reload: were it inside a watched tree, each
      // reload would cause the next one.
      [cacheDir()],
      this.options.ignore ?? true,
    );
    this.watcher = watcher;
    // speky:speky-ts#LIVE-WATCH-CATCH-UP
    // While the first scan runs, only the spec files' and the results' folders are watched:
    // walking the trees to watch them would share the thread with the scan. Once it is done the
    // trees are walked and watched, and then one reload looks again at everything: a change
    // made before its folder was watched (a spec saved as the server answered, a code file
    // edited in place as the scan went by) told no watcher. It swaps the model only when it
    // found something new, so a start with no change meanwhile costs the clients nothing.
    const scanning = this.state.scanning !== null;
    const plan = watchPlan(this.state.model, this.options);
    watcher.update(scanning ? { ...plan, trees: [] } : plan);
    this.caughtUp = (async () => {
      if (scanning) {
        await this.firstScan;
        if (this.watcher !== watcher) return;
        watcher.update(watchPlan(this.state.model, this.options));
      }
      await watcher.settled();
      const begun = this.loadsBegun;
      while (this.reloading) await this.reloading.catch(() => {});
      if (this.watcher !== watcher) return;
      // Not needed when a load began once every folder was watched, or a change waits for one
      // (it will): that load sees everything. Nor while the specs do not load: the next load is
      // the one their fix causes, seen by the spec files' own watch, and it rescans everything.
      if (this.loadsBegun > begun || this.debounce.pending || this.state.stale) return;
      await this.run(() => this.reloadOnce(true));
    })().catch((error: unknown) => {
      this.emit("warning", `reload failed: ${String(error)}`);
    });
  }

  stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    this.debounce.cancel();
  }

  private changed(abs: string): void {
    let matters: boolean;
    let results = false;
    try {
      results = this.relevance.isResults(abs);
      matters = results || this.relevance.matters(abs);
    } catch {
      matters = true;
    }
    if (!matters) return;
    if (!results) this.resultsOnly = false;
    this.schedule();
  }

  /** Debounced: a burst of changes makes one reload, at most MAX_DELAY_MS after its first change. */
  private schedule(): void {
    this.debounce.poke(() => {
      const resultsOnly = this.resultsOnly;
      this.resultsOnly = true;
      (resultsOnly ? this.reloadResults() : this.reload()).catch((error: unknown) =>
        this.emit("warning", `reload failed: ${String(error)}`),
      );
    });
  }

  /** Reloads now; requests made meanwhile coalesce into one more reload after the running one. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.dirty = true;
      return this.reloading;
    }
    return this.run(() => this.reloadOnce());
  }

  /**
   * A test run wrote its results: the served model takes the results read again (same specs,
   * same code references), swapped whole as any reload. While a reload runs, this waits for it
   * and then reads the results again: a whole reload meanwhile read them already, but maybe
   * before the run finished writing.
   */
  // speky:speky-ts#RESULTS-LIVE
  async reloadResults(): Promise<void> {
    while (this.reloading) await this.reloading.catch(() => {});
    return this.run(async () => {
      const previous = this.state;
      if (previous.scanning) return;
      const model = await withResults(previous.model, this.options, true);
      this.state = Object.freeze({ ...previous, model, loadedAt: new Date() });
      this.emit("results", model);
      this.emit("swapped", model, false);
    });
  }

  /** Runs `first`, then reloads for as long as reloads were asked for meanwhile. */
  private run(first: () => Promise<void>): Promise<void> {
    this.reloading = (async () => {
      try {
        await first();
        while (this.dirty) {
          this.dirty = false;
          await this.reloadOnce();
        }
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  /** @param ifChanged swap only when the model differs from the served one (the catch-up) */
  private async reloadOnce(ifChanged = false): Promise<void> {
    this.loadsBegun++;
    let model: Model | null;
    let diagnostics: Diagnostic[];
    try {
      ({ model, diagnostics } = await loadModel(this.paths, this.options, { cooperative: true }));
    } catch (error) {
      model = null;
      const message = `reload failed: ${error instanceof Error ? error.message : String(error)}`;
      diagnostics = [{ file: "", line: 0, column: 0, severity: "error", message }];
    }
    // The loader's order: sorted, a failed file's errors first (src/loader/cause.ts).
    const problems = [...diagnostics];
    const previous = this.state;
    if (!model || hasErrors(problems)) {
      this.state = Object.freeze({ ...previous, problems, stale: true });
      this.emit("rejected", problems);
      return;
    }
    if (ifChanged && !previous.stale && sameModel(previous.model, model)) return;
    // The swap: one assignment of one frozen object.
    this.state = Object.freeze({ model, loadedAt: new Date(), problems, stale: false, scanning: null });
    this.relevance = new Relevance(model, this.options);
    this.watcher?.update(watchPlan(model, this.options));
    this.emit("swapped", model, !sameIds(previous.model, model));
  }
}
