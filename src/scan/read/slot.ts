// A pool worker as the pool sees it, and the budget of bytes the workers may hold in files read
// whole (read/pool.ts).
import type { Worker } from "node:worker_threads";
import type { WholeAsk } from "./worker.js";
import { type FileTask, MAX_SOURCE_BYTES } from "./worker-task.js";

/** A batch of tasks sent to one worker. */
export interface Batch {
  id: number;
  /** Task indexes, in the run's task list. */
  indexes: number[];
  /** The run's task at an index: a batch's tasks are made when it is sent (a walk far ahead of the workers queues most of a tree). */
  taskOf: (index: number) => FileTask;
  /** The worker this batch is for (its grammars are loaded there); null: any. */
  owner: Slot | null;
}

/**
 * Bytes of files read whole (over 1 MB and holding the marker) that the workers may hold at
 * once, all of them together: one file at the size cap, or several smaller ones. Each such file
 * costs a few times its size while it is decoded and scanned; without this bound, three
 * 250 MB files in three threads took 2.3 GB.
 */
export const WHOLE_BYTES_IN_FLIGHT = MAX_SOURCE_BYTES;

export class Slot {
  readonly inFlight = new Map<number, Batch>();
  alive = true;
  /** Bytes of whole reads this worker was granted and has not given back. */
  wholeHeld = 0;
  constructor(readonly worker: Worker) {}
}

// speky:speky-ts#SCAN-BYTES-IN-FLIGHT
/** The workers' whole reads (WHOLE_BYTES_IN_FLIGHT): granted in the order asked, while the budget allows. */
export class WholeBudget {
  private held = 0;
  private readonly waiting: { slot: Slot; ask: WholeAsk }[] = [];

  ask(slot: Slot, ask: WholeAsk): void {
    this.waiting.push({ slot, ask });
    this.grant();
  }

  release(slot: Slot, bytes: number): void {
    slot.wholeHeld -= bytes;
    this.held -= bytes;
    this.grant();
  }

  /** A worker gone: what it held or asked for is given back. */
  forget(slot: Slot): void {
    this.held -= slot.wholeHeld;
    slot.wholeHeld = 0;
    for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i].slot === slot) this.waiting.splice(i, 1);
    this.grant();
  }

  private grant(): void {
    // A file alone always goes (none is over the budget: MAX_SOURCE_BYTES caps reads).
    while (this.waiting.length > 0 && (this.held === 0 || this.held + this.waiting[0].ask.bytes <= WHOLE_BYTES_IN_FLIGHT)) {
      const { slot, ask } = this.waiting.shift()!;
      slot.wholeHeld += ask.bytes;
      this.held += ask.bytes;
      slot.worker.postMessage({ granted: ask.ask });
    }
  }
}
