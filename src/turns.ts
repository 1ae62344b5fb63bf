// Long loops that share a thread with a server (a background scan, a walk, the watcher's walk):
// they give the event loop a turn every few milliseconds, so that requests keep being answered
// meanwhile. The check is synchronous and cheap; only a due turn costs an await (a macrotask, so
// I/O callbacks run).
import { nowMs } from "./clock.js";

/** Longest stretch of loop work between two turns of the event loop. */
const SLICE_MS = 8;

export class Turns {
  private last = nowMs();

  /** @param enabled false: never yields (the CLI, which has nothing else to do meanwhile). */
  constructor(private readonly enabled: boolean) {}

  /** True when the loop has run a slice: then `await turns.take()`. */
  due(): boolean {
    return this.enabled && nowMs() - this.last >= SLICE_MS;
  }

  async take(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = nowMs();
  }

  /** A turn if one is due. */
  async maybeTake(): Promise<void> {
    if (this.due()) await this.take();
  }

  /**
   * Whether `test` holds for every index below `count`, stopping at the first that fails; a
   * turn, if due, after each `chunk` indexes (a server's warm scan stats every cached folder and
   * file so: on the bench tree one loop held the thread 12-25 and 90-130 ms).
   */
  async every(count: number, test: (index: number) => boolean, chunk = 512): Promise<boolean> {
    for (let from = 0; from < count; from += chunk) {
      const to = Math.min(count, from + chunk);
      for (let i = from; i < to; i++) if (!test(i)) return false;
      await this.maybeTake();
    }
    return true;
  }
}

/** A Turns that never yields. */
export const NO_TURNS = new Turns(false);
