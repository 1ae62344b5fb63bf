// The outcomes of a pool run, at their task's index, held compactly: a file without the marker
// (most of a tree) is three numbers in one column, not an outcome, an entry and two boxed
// numbers; its outcome is made when asked (a cold scan of a million files holds a million).
import { StampColumn } from "./stamp-column.js";
import { type TaskOutcome, UNSTAMPED_NO_TAGS } from "./worker-task.js";

/** Marks a task whose outcome is its stamp in the column. */
const PLAIN = Symbol("plain");

export class OutcomeStore {
  private readonly held: (TaskOutcome | typeof PLAIN | undefined)[] = [];
  private readonly stamps = new StampColumn();

  /** Task `index` settled with `outcome`. */
  set(index: number, outcome: TaskOutcome): void {
    this.held[index] = outcome;
  }

  /** Task `index` holds no marker: its stamp is numbers `3k` to `3k + 2` of `from` (NaN size: not stamped). */
  setPlain(index: number, from: Float64Array, k: number): void {
    const size = from[3 * k];
    if (Number.isNaN(size)) {
      this.held[index] = UNSTAMPED_NO_TAGS;
      return;
    }
    this.stamps.set(index, size, from[3 * k + 1], from[3 * k + 2]);
    this.held[index] = PLAIN;
  }

  has(index: number): boolean {
    return this.held[index] !== undefined;
  }

  /** Task `index`'s outcome; undefined while it is not settled. */
  get(index: number): TaskOutcome | undefined {
    const held = this.held[index];
    if (held !== PLAIN) return held;
    const stamps = this.stamps;
    return { entry: { size: stamps.size(index), mtimeMs: stamps.mtime(index), ctimeMs: stamps.ctime(index), hash: null, result: null } };
  }

  /** The first `count` outcomes as a list (every task settled). */
  list(count: number): TaskOutcome[] {
    return Array.from({ length: count }, (_, i) => this.get(i) as TaskOutcome);
  }
}
