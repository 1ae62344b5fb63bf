// The files a scan reads, by columns: a path, a real path and the targets whose patterns matched,
// per file, with no object per file. A cold scan of a million files keeps them from the walk's
// end to the output.
import { compareStrings } from "../../diagnostics.js";
import type { Reached } from "../../fs/globs.js";
import type { ScanTarget } from "../types.js";

/** One file to scan (a view of FileJobs' row). */
export interface FileJob {
  absPath: string;
  /** Its real path: the same file reached twice is one job. */
  real: string;
  /** Targets whose patterns matched the file, in target order. */
  targets: ScanTarget[];
}

/** The targets of every file: one list for all (a single walk's files, most scans), or one per file. */
type TargetColumn = { all: ScanTarget[] } | { each: readonly ScanTarget[][] };

/** The files to scan, sorted by path, each real file once. */
export class FileJobs {
  constructor(
    readonly absPaths: readonly string[],
    /** null: every file's real path is its path (no link on the way: most trees). */
    private readonly reals: readonly string[] | null,
    private readonly targets: TargetColumn,
  ) {}

  get length(): number {
    return this.absPaths.length;
  }

  real(i: number): string {
    return this.reals ? this.reals[i] : this.absPaths[i];
  }

  targetsOf(i: number): ScanTarget[] {
    const { targets } = this;
    return "all" in targets ? targets.all : targets.each[i];
  }

  at(i: number): FileJob {
    return { absPath: this.absPaths[i], real: this.real(i), targets: this.targetsOf(i) };
  }

  /** Views, one per file (tests and tools; a scan reads the columns). */
  *[Symbol.iterator](): IterableIterator<FileJob> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  map<T>(fn: (job: FileJob, i: number) => T): T[] {
    return this.absPaths.map((_, i) => fn(this.at(i), i));
  }

  /** The same jobs in path order: a remembered walk's files come sorted, which one pass tells. */
  inOrder(): FileJobs {
    const { absPaths, reals, targets } = this;
    let sorted = true;
    for (let i = 1; i < absPaths.length && sorted; i++) sorted = absPaths[i - 1] <= absPaths[i];
    if (sorted) return this;
    const order = absPaths.map((_, i) => i).sort((a, b) => compareStrings(absPaths[a], absPaths[b]));
    return new FileJobs(
      order.map((i) => absPaths[i]),
      reals && order.map((i) => reals[i]),
      "all" in targets ? targets : { each: order.map((i) => targets.each[i]) },
    );
  }
}

/** Real paths as a column, or null when each is its file's path (the same string, or equal). */
function realsOf(absPaths: readonly string[], reals: readonly string[]): readonly string[] | null {
  for (let i = 0; i < reals.length; i++) if (reals[i] !== absPaths[i]) return reals;
  return null;
}

/** Collects the files of a scan's walks, each real file once, into FileJobs. */
export class JobsBuilder {
  /** The files of the first walk, while it is the only one (most scans): a walk reaches each real file once. */
  private first: { files: readonly Reached[]; target: ScanTarget } | null = null;
  /** From a second walk or a named file on: the row of each real path. */
  private byReal: Map<string, number> | null = null;
  private readonly absPaths: string[] = [];
  private readonly reals: string[] = [];
  private readonly targets: ScanTarget[][] = [];
  /** One list per target for the files of one target only (most of them), copied when a second comes. */
  private readonly alone = new Map<ScanTarget, ScanTarget[]>();

  /** A walk's files (each real file once). */
  addWalk(files: readonly Reached[], target: ScanTarget): void {
    if (this.byReal === null && this.first === null) {
      this.first = { files, target };
      return;
    }
    for (const f of files) this.add(f.abs, f.real, target);
  }

  add(absPath: string, real: string, target: ScanTarget): void {
    const byReal = this.rows();
    const row = byReal.get(real);
    if (row === undefined) this.push(absPath, real, this.aloneList(target));
    else if (!this.targets[row].includes(target)) this.targets[row] = [...this.targets[row], target];
  }

  private push(absPath: string, real: string, targets: ScanTarget[]): void {
    this.byReal!.set(real, this.absPaths.length);
    this.absPaths.push(absPath);
    this.reals.push(real);
    this.targets.push(targets);
  }

  private aloneList(target: ScanTarget): ScanTarget[] {
    let targets = this.alone.get(target);
    if (!targets) this.alone.set(target, (targets = [target]));
    return targets;
  }

  /** The row index, made (with the first walk's files as rows) once more than one walk counts. */
  private rows(): Map<string, number> {
    if (this.byReal) return this.byReal;
    this.byReal = new Map();
    const first = this.first;
    this.first = null;
    if (first) {
      const targets = this.aloneList(first.target);
      for (const f of first.files) this.push(f.abs, f.real, targets);
    }
    return this.byReal;
  }

  sorted(): FileJobs {
    if (this.first) {
      const { files, target } = this.first;
      const absPaths = files.map((f) => f.abs);
      const reals = realsOf(
        absPaths,
        files.map((f) => f.real),
      );
      return new FileJobs(absPaths, reals, { all: this.aloneList(target) }).inOrder();
    }
    const { targets } = this;
    const shared = targets.length > 0 && targets.every((t) => t === targets[0]);
    return new FileJobs(this.absPaths, realsOf(this.absPaths, this.reals), shared ? { all: targets[0] } : { each: targets }).inOrder();
  }
}
