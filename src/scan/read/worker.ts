// A scan pool worker: batches of files in, their outcomes out, with this thread's own parsers.
import { parentPort } from "node:worker_threads";
import { grammarTraps } from "../grammar/traps.js";
import {
  type CacheEntry,
  type FileTask,
  isPending,
  isWhole,
  type PendingParse,
  type PendingWhole,
  parsePending,
  readTask,
  readWhole,
  type TaskOutcome,
  UNSTAMPED_NO_TAGS,
  warmUp,
} from "./worker-task.js";

export interface BatchRequest {
  id: number;
  tasks: FileTask[];
}

export interface BatchReply {
  id: number;
  /**
   * null: a file without the marker, most of a cold scan's, not cloned as an object: its stamp
   * is numbers 3k to 3k+2 of `stamps` (size, mtime, ctime), NaN for an unstamped file
   * (UNSTAMPED_NO_TAGS).
   */
  outcomes: (TaskOutcome | null)[];
  /** Transferred, not copied. */
  stamps: Float64Array;
  /**
   * A grammar trapped in the last outcome's parse: this thread's parser runtime can't be
   * trusted any more, so the worker stops here (outcomes holds only the tasks done) and
   * answers nothing further; the pool replaces it.
   */
  broken?: boolean;
}

/** Asks the pool for the right to hold `bytes` of one file read whole (the pool's budget). */
export interface WholeAsk {
  ask: number;
  bytes: number;
}

/** The pool's answer to a WholeAsk. */
interface WholeGrant {
  granted: number;
}

/** Gives back what a WholeAsk took, once the file's content is no longer needed. */
export interface WholeRelease {
  released: number;
}

const port = parentPort;
if (!port) throw new Error("scan worker: not started as a worker thread");

const grants = new Map<number, () => void>();
let nextAsk = 0;

/** Waits until the pool lets this thread read `bytes` of one file whole. */
function wholeBytes(bytes: number): Promise<void> {
  const ask = nextAsk++;
  port!.postMessage({ ask, bytes } satisfies WholeAsk);
  return new Promise((resolve) => grants.set(ask, resolve));
}

/** A file whose content must be read whole: once the pool's budget allows, given back after its parse. */
async function settleWhole(read: PendingWhole): Promise<TaskOutcome> {
  const bytes = read.stamp.size;
  await wholeBytes(bytes);
  try {
    const whole = readWhole(read);
    return isPending(whole) ? await parsePending(whole) : whole;
  } finally {
    port!.postMessage({ released: bytes } satisfies WholeRelease);
  }
}

async function settle(task: FileTask): Promise<TaskOutcome> {
  const read = readTask(task);
  if (isWhole(read)) return settleWhole(read);
  // Only a parse awaits: a file without the marker takes no turn of the microtask queue.
  if (!isPending(read)) return read;
  return parsePending(read as PendingParse);
}

/** Whether an outcome travels as its stamp alone (BatchReply): a file without the marker. */
function plain(outcome: TaskOutcome): outcome is { entry: CacheEntry } {
  return "entry" in outcome && outcome.entry.hash === null && outcome.entry.result === null;
}

/**
 * One batch at a time, in arrival order: the read buffer and the parsers are this thread's.
 * The parser's modules and runtime load meanwhile, while the main thread still walks the
 * tree: the reads don't wait for them, the first parse does.
 */
void warmUp();
let queue: Promise<void> = Promise.resolve();
let broken = false;

port.on("message", (message: BatchRequest | WholeGrant) => {
  if ("granted" in message) {
    grants.get(message.granted)?.();
    grants.delete(message.granted);
    return;
  }
  const request = message;
  queue = queue.then(async () => {
    if (broken) return;
    const outcomes: (TaskOutcome | null)[] = [];
    const stamps = new Float64Array(3 * request.tasks.length).fill(Number.NaN);
    for (const task of request.tasks) {
      const traps = grammarTraps();
      try {
        const outcome = await settle(task);
        if (!plain(outcome)) outcomes.push(outcome);
        else {
          if (outcome !== UNSTAMPED_NO_TAGS) {
            const at = 3 * outcomes.length;
            stamps[at] = outcome.entry.size;
            stamps[at + 1] = outcome.entry.mtimeMs;
            stamps[at + 2] = outcome.entry.ctimeMs;
          }
          outcomes.push(null);
        }
      } catch (err) {
        outcomes.push({ error: `cannot scan file: ${err instanceof Error ? err.message : String(err)}` });
      }
      if (grammarTraps() !== traps) {
        broken = true;
        break;
      }
    }
    port.postMessage({ id: request.id, outcomes, stamps, ...(broken ? { broken } : {}) } satisfies BatchReply, [stamps.buffer]);
  });
});
