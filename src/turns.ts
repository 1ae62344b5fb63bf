// Long loops that share a thread with a server (a background scan, a walk, the watcher's walk):
// they give the event loop a turn every few milliseconds, so that requests keep being answered
// meanwhile. The check is synchronous and cheap; only a due turn costs an await (a macrotask, so
// I/O callbacks run).

/** Longest stretch of loop work between two turns of the event loop. */
const SLICE_MS = 8;

export class Turns {
  private last = performance.now();

  /** @param enabled false: never yields (the CLI, which has nothing else to do meanwhile). */
  constructor(private readonly enabled: boolean) {}

  /** True when the loop has run a slice: then `await turns.take()`. */
  due(): boolean {
    return this.enabled && performance.now() - this.last >= SLICE_MS;
  }

  async take(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }

  /** A turn if one is due. */
  async maybeTake(): Promise<void> {
    if (this.due()) await this.take();
  }
}

/** A Turns that never yields. */
export const NO_TURNS = new Turns(false);
