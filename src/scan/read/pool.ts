// The scan's worker pool: worker_threads (os.availableParallelism() of them), each with its own
// parsers, fed batches of files; outcomes land at their task's index, so the merge order is
// the task order whatever the timing. Workers stay loaded (grammars compiled) between scans
// of one process and leave after a few idle seconds; they never keep the process alive.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { OutcomeStore } from "./outcome-store.js";
import { type Batch, Slot, WholeBudget } from "./slot.js";
import type { BatchReply, BatchRequest, WholeAsk, WholeRelease } from "./worker.js";
import { type FileTask, runTask, type TaskOutcome } from "./worker-task.js";

/** From source (tests), the built worker: a worker thread needs plain JavaScript. */
const WORKER_FILE = fileURLToPath(
  import.meta.url.endsWith(".ts") ? new URL("../../../dist/scan/read/worker.js", import.meta.url) : new URL("./worker.js", import.meta.url),
);

/** Files to read from which the workers read too: below, one thread reads them faster than workers start. */
export const POOL_MIN_FILES = 2000;
/** Bytes to parse (files holding the marker) from which the parse goes to the pool (~0.2 s of parsing). */
export const POOL_MIN_PARSE_BYTES = 512 * 1024;
const BATCH_FILES = 128;
/** Batches sent ahead to each worker, so that none waits for the main thread. */
const IN_FLIGHT = 2;
const IDLE_MS = 5000;

/** Whether a pool of `size` can run here: two threads or more, and the built worker. */
export function poolPossible(size: number): boolean {
  return size >= 2 && existsSync(WORKER_FILE);
}

interface Run {
  outcomes: OutcomeStore;
  queue: Batch[];
  remaining: number;
  onProgress: (done: number) => void;
  done: () => void;
}

export class Pool {
  private readonly slots: Slot[] = [];
  private readonly whole = new WholeBudget();
  private run: Run | null = null;
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;
  /** One run at a time: concurrent scans of one process queue here. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly size: number) {}

  /** `groups`: task indexes per worker (by language); default: batches to whoever is free. */
  process(tasks: FileTask[], onProgress: (done: number) => void, groups?: number[][]): Promise<TaskOutcome[]> {
    const result = this.turn.then(() => this.execute(tasks, onProgress, groups));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private spawn(): Slot {
    const slot = new Slot(new Worker(WORKER_FILE));
    slot.worker.on("message", (message: BatchReply | WholeAsk | WholeRelease) => {
      if ("ask" in message) this.whole.ask(slot, message);
      else if ("released" in message) this.whole.release(slot, message.released);
      else this.onReply(slot, message);
    });
    const lost = () => this.onLost(slot);
    slot.worker.on("error", lost);
    slot.worker.on("exit", lost);
    return slot;
  }

  /** Starts the missing workers (they boot while the caller walks the tree). */
  prepare(): void {
    clearTimeout(this.idle);
    for (let i = this.slots.length - 1; i >= 0; i--) if (!this.slots[i].alive) this.slots.splice(i, 1);
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    if (!this.run) this.rest();
  }

  /**
   * A run whose tasks come while the tree is still walked: `push` as files are found (batched
   * and fed to the workers at once), `end` once the walk is done. It takes its turn like
   * process(); tasks pushed before then wait in its queue.
   */
  stream(onProgress: (done: number) => void, unstamped: boolean): TaskStream {
    // A path per file, its task made when batched: no task object kept per file of the tree.
    const paths: string[] = [];
    const taskOf = (i: number): FileTask => ({ absPath: paths[i], cached: null, unstamped });
    const outcomes = new OutcomeStore();
    let pending: number[] = [];
    let ended = false;
    let finished!: () => void;
    const allDone = new Promise<void>((resolve) => (finished = resolve));
    const run: Run = {
      outcomes,
      queue: [],
      remaining: 0,
      onProgress,
      done: () => {
        if (ended) finished();
      },
    };
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const start = previous.then(() => {
      this.prepare();
      clearTimeout(this.idle);
      this.run = run;
      started = true;
      for (const slot of this.slots) {
        slot.worker.ref();
        this.feed(slot);
      }
    });
    const flush = () => {
      if (pending.length === 0) return;
      run.queue.push(...this.batches(pending, taskOf, null));
      run.remaining = run.queue.length + this.slots.reduce((n, s) => n + s.inFlight.size, 0);
      pending = [];
      if (started) for (const slot of this.slots) this.feed(slot);
    };
    return {
      push: (absPath) => {
        pending.push(paths.push(absPath) - 1);
        if (pending.length >= BATCH_FILES) flush();
      },
      end: async () => {
        flush();
        ended = true;
        await start;
        if (run.remaining > 0) await allDone;
        this.run = null;
        await this.rescue(outcomes, paths.length, taskOf);
        this.rest();
        release();
        return { paths, outcomes };
      },
    };
  }

  /** Idle workers don't keep the process alive, and leave after IDLE_MS. */
  private rest(): void {
    for (const slot of this.slots) slot.worker.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
  }

  private batches(indexes: number[], taskOf: (index: number) => FileTask, owner: Slot | null): Batch[] {
    const out: Batch[] = [];
    for (let start = 0; start < indexes.length; start += BATCH_FILES) {
      const slice = indexes.slice(start, start + BATCH_FILES);
      out.push({ id: this.nextId++, indexes: slice, taskOf, owner });
    }
    return out;
  }

  private async execute(tasks: FileTask[], onProgress: (done: number) => void, groups?: number[][]): Promise<TaskOutcome[]> {
    this.prepare();
    clearTimeout(this.idle);
    const taskOf = (i: number) => tasks[i];
    const queue = groups
      ? groups.flatMap((g, k) => this.batches(g, taskOf, this.slots[k % this.slots.length]))
      : this.batches(
          tasks.map((_, i) => i),
          taskOf,
          null,
        );
    const outcomes = new OutcomeStore();
    await new Promise<void>((resolve) => {
      this.run = { outcomes, queue, remaining: queue.length, onProgress, done: resolve };
      if (queue.length === 0) resolve();
      for (const slot of this.slots) {
        slot.worker.ref();
        this.feed(slot);
      }
    });
    this.run = null;
    await this.rescue(outcomes, tasks.length, taskOf);
    this.rest();
    return outcomes.list(tasks.length);
  }

  private feed(slot: Slot): void {
    const run = this.run;
    if (!run) return;
    while (slot.alive && slot.inFlight.size < IN_FLIGHT) {
      const at = run.queue.findIndex((b) => b.owner === null || b.owner === slot || !b.owner.alive);
      if (at < 0) break;
      const [batch] = run.queue.splice(at, 1);
      slot.inFlight.set(batch.id, batch);
      slot.worker.postMessage({ id: batch.id, tasks: batch.indexes.map(batch.taskOf) } satisfies BatchRequest);
    }
  }

  private onReply(slot: Slot, reply: BatchReply): void {
    const run = this.run;
    const batch = slot.inFlight.get(reply.id);
    if (!run || !batch) return;
    slot.inFlight.delete(reply.id);
    for (const [k, outcome] of reply.outcomes.entries()) {
      if (outcome) run.outcomes.set(batch.indexes[k], outcome);
      else run.outcomes.setPlain(batch.indexes[k], reply.stamps, k);
    }
    run.onProgress(reply.outcomes.length);
    run.remaining--;
    if (reply.broken) {
      const done = reply.outcomes.length;
      if (done < batch.indexes.length) {
        run.queue.unshift({ id: this.nextId++, indexes: batch.indexes.slice(done), taskOf: batch.taskOf, owner: null });
        run.remaining++;
      }
      this.replace(slot);
    } else this.feed(slot);
    if (run.remaining === 0) run.done();
  }

  // speky:speky-ts#SCAN-TRAP-WORKER
  /**
   * A worker whose grammar trapped: its batches not done go back to the queue, it is ended,
   * and a fresh one (a runtime of its own) takes its place.
   */
  private replace(slot: Slot): void {
    slot.alive = false;
    this.whole.forget(slot);
    const run = this.run;
    if (run) run.queue.unshift(...[...slot.inFlight.values()].map((b) => ({ ...b, owner: null })));
    slot.inFlight.clear();
    void slot.worker.terminate();
    const fresh = this.spawn();
    this.slots[this.slots.indexOf(slot)] = fresh;
    if (!run) {
      fresh.worker.unref();
      return;
    }
    for (const s of this.slots) this.feed(s);
  }

  /** A worker that died: its batches go to the others, or are done inline when none is left. */
  private onLost(slot: Slot): void {
    if (!slot.alive) return;
    slot.alive = false;
    this.whole.forget(slot);
    const run = this.run;
    if (!run) return;
    run.queue.unshift(...[...slot.inFlight.values()].map((b) => ({ ...b, owner: null })));
    slot.inFlight.clear();
    const living = this.slots.filter((s) => s.alive);
    for (const s of living) this.feed(s);
    if (living.length === 0) {
      // Counted as done here; rescue() finds the holes and fills them inline.
      run.remaining -= run.queue.length;
      run.queue = [];
      if (run.remaining === 0) run.done();
    }
  }

  private async rescue(outcomes: OutcomeStore, count: number, taskOf: (index: number) => FileTask): Promise<void> {
    for (let i = 0; i < count; i++) if (!outcomes.has(i)) outcomes.set(i, await runTask(taskOf(i)));
  }

  close(): void {
    for (const slot of this.slots.splice(0)) {
      slot.alive = false;
      void slot.worker.terminate();
    }
  }
}

export interface TaskStream {
  /** A file to read and settle (a task with nothing cached). */
  push(absPath: string): void;
  /** Every path pushed and its outcome, in push order. */
  end(): Promise<{ paths: string[]; outcomes: OutcomeStore }>;
}
