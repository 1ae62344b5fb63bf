// What a call to a live model sees (state), how it is described (status, a stale note), the
// first scan's progress, and how a live model is opened and what it tells (live-model.ts).
import { EventEmitter } from "node:events";
import { type Diagnostic, formatDiagnostic } from "../diagnostics.js";
import type { Model } from "../model/model.js";
import { plural } from "../quote.js";

/** What one call sees: read once, at its start, as one object. */
export interface LiveState {
  readonly model: Model;
  /** When the served model was loaded. */
  readonly loadedAt: Date;
  /** Loader diagnostics of the latest load attempt: the served model's, or the failed reload's. */
  readonly problems: readonly Diagnostic[];
  /** True while the served model is older than specs that fail to load. */
  readonly stale: boolean;
  /**
   * While the first scan of the code sources runs: its progress, and the model holds the specs
   * only (no code references, no test automation). null once that scan is done.
   */
  readonly scanning: ScanProgress | null;
}

/** The first scan's progress: counts that move while it runs, and a promise of its end. */
export class ScanProgress extends EventEmitter<{ progress: [] }> {
  /** Files settled so far. */
  done = 0;
  /** Files to scan; null until the walk has listed them. */
  total: number | null = null;
  readonly finished: Promise<void>;
  private finish!: () => void;

  constructor() {
    super();
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  update(done: number, total: number): void {
    if (done === this.done && total === this.total) return;
    this.done = done;
    this.total = total;
    this.emit("progress");
  }

  /** Resolves `finished` (once the scanned model is in place). */
  end(): void {
    this.finish();
  }

  /** "scan in progress: N of M files" */
  describe(): string {
    return `scan in progress: ${this.done} of ${this.total ?? "?"} files`;
  }
}

export interface Status {
  loaded_at: string;
  files: number;
  requirements: number;
  tests: number;
  code_references: number;
  /** Loader problems of the latest attempt (errors when the last good model is kept). */
  problems: Diagnostic[];
  /** Present while the first scan of the code sources runs. */
  scanning?: { files_done: number; files_total?: number };
}

export function statusOf(state: LiveState): Status {
  const m = state.model;
  const scan = state.scanning;
  return {
    loaded_at: state.loadedAt.toISOString(),
    files: m.specs.files.length + (m.scanStats?.files ?? 0),
    requirements: m.requirementIds.length,
    tests: m.testIds.length,
    code_references: m.codeReferences.length,
    problems: [...state.problems],
    ...(scan ? { scanning: { files_done: scan.done, ...(scan.total === null ? {} : { files_total: scan.total }) } } : {}),
  };
}

/** "specs/x.yaml:3:1: error: ... — serving the model loaded at <time>", or null when fresh. */
export function staleNote(state: LiveState): string | null {
  if (!state.stale) return null;
  const errors = state.problems.filter((d) => d.severity === "error");
  const first = errors[0] ? formatDiagnostic(errors[0]).replace(/^: /, "") : "the specification does not load";
  const more = errors.length > 1 ? ` (and ${plural(errors.length - 1, "more error")})` : "";
  return `${first}${more} — serving the model loaded at ${state.loadedAt.toISOString()}`;
}

export interface OpenSettings {
  /** Milliseconds of quiet after a change before reloading. */
  debounceMs?: number;
  /**
   * Serve the specs as soon as they load and scan the code sources afterwards (see
   * `LiveState.scanning`, `whenScanned`); default false: `open` resolves after the scan.
   */
  background?: boolean;
  /** Awaited between the first scan's walk and its reads (a test holds the scan there). */
  afterWalk?: (total: number) => Promise<void>;
  /** With `background`: the scan starts once this resolves (the MCP server answers `initialize` first). */
  scanAfter?: Promise<unknown>;
}

export interface LiveEvents {
  /** A new model took over; `idsChanged` when the set of requirement or test IDs differs. */
  swapped: [model: Model, idsChanged: boolean];
  /** The latest reload failed; the previous model stays. */
  rejected: [problems: Diagnostic[]];
  /** The first scan (background mode) is done: its model, with code references, is served. */
  scanned: [model: Model];
  /** Only the test results were read again (a test run wrote them); `swapped` follows. */
  results: [model: Model];
  /** Something about watching the user should know (e.g. the watch budget is spent). */
  warning: [message: string];
}
