// A cold scan of a big tree reads while it walks: once the walk has reached POOL_MIN_FILES
// files (the size from which the pool pays, pool.ts), they and every file after go to the
// pool's workers as they are found, instead of after the whole walk. The main thread walks
// meanwhile; on two cores the workers' start and the walk no longer come one after the other.
// What the feed settled is taken by real path (walk.ts makes each real file one job); a job
// it did not settle (a file named outright, or reached under another name) is read as usual.
import type { Reached } from "../../fs/globs.js";
import type { OutcomeStore } from "./outcome-store.js";
import { POOL_MIN_FILES, type TaskStream } from "./pool.js";
import { streamTasks } from "./shared-pool.js";
import type { TaskOutcome } from "./worker-task.js";

interface Settled {
  /** The path the file was read under (its language follows from it). */
  absPath: string;
  outcome: TaskOutcome;
}

/**
 * What the feed settled, looked up by real path: in the walk's order, so a lookup in the same
 * order (the scan's, by path) is tried first at the row after the last one found, and an index
 * of every real path is built only when that misses. No object per file.
 */
export class FedFiles {
  private cursor = 0;
  private index: Map<string, number> | undefined;

  constructor(
    private readonly reals: readonly string[],
    private readonly paths: readonly string[],
    private readonly outcomes: OutcomeStore,
  ) {}

  get(real: string): Settled | undefined {
    let row: number | undefined = this.cursor;
    if (this.reals[row] !== real) {
      this.index ??= new Map(this.reals.map((r, i) => [r, i]));
      row = this.index.get(real);
      if (row === undefined) return undefined;
    }
    this.cursor = row + 1;
    return { absPath: this.paths[row], outcome: this.outcomes.get(row)! };
  }
}

export class WalkFeed {
  private buffered: Reached[] = [];
  private stream: TaskStream | null = null;
  private off = false;
  /** The real path of each file sent, in order. */
  private readonly sent: string[] = [];
  /**
   * The same, to tell a file sent already: needed only from a second walk on (one walk reaches
   * each real file once), so a scan of one folder keeps no set of its files (~25 bytes each).
   */
  private seen: Set<string> | null = null;
  private walks = 0;
  /** Files settled while the walk still ran, for the progress line once its total is known. */
  private settled = 0;
  private progress: ((done: number) => void) | null = null;

  /** `unstamped`: no cache keeps the files' stamps (worker-task.ts reads them without fstat). */
  constructor(private readonly unstamped: boolean) {}

  readonly onWalk = (): void => {
    if (++this.walks === 2) this.seen = new Set(this.sent);
  };

  readonly onFile = (file: Reached): void => {
    if (this.off) return;
    if (this.seen) {
      if (this.seen.has(file.real)) return;
      this.seen.add(file.real);
    }
    this.sent.push(file.real);
    if (this.stream) this.stream.push(file.abs);
    else {
      this.buffered.push(file);
      if (this.buffered.length >= POOL_MIN_FILES) this.open();
    }
  };

  private open(): void {
    this.stream = streamTasks((n) => (this.progress ? this.progress(n) : (this.settled += n)), this.unstamped);
    if (!this.stream) this.off = true;
    else for (const file of this.buffered) this.stream.push(file.abs);
    this.buffered = [];
  }

  /**
   * After the walk: what the workers settled, by real path (null when the tree was too small
   * to feed them); `onProgress` hears what is settled from now on, after what already was.
   */
  async finish(onProgress: (done: number) => void): Promise<FedFiles | null> {
    this.off = true;
    this.seen = null;
    if (!this.stream) return null;
    onProgress(this.settled);
    this.progress = onProgress;
    const { paths, outcomes } = await this.stream.end();
    return new FedFiles(this.sent, paths, outcomes);
  }
}
