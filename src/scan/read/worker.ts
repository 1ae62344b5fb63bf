// A scan pool worker: batches of files in, their outcomes out, with this thread's own parsers.
import { parentPort } from "node:worker_threads";
import { type FileTask, isPending, parsePending, readTask, type TaskOutcome, UNSTAMPED_NO_TAGS, warmUp } from "./worker-task.js";

export interface BatchRequest {
  id: number;
  tasks: FileTask[];
}

export interface BatchReply {
  id: number;
  /** null: an unstamped file without the marker (UNSTAMPED_NO_TAGS), most of a cold scan's, not cloned. */
  outcomes: (TaskOutcome | null)[];
}

const port = parentPort;
if (!port) throw new Error("scan worker: not started as a worker thread");

/**
 * One batch at a time, in arrival order: the read buffer and the parsers are this thread's.
 * The parser's modules and runtime load meanwhile, while the main thread still walks the
 * tree: the reads don't wait for them, the first parse does.
 */
void warmUp();
let queue: Promise<void> = Promise.resolve();

port.on("message", (request: BatchRequest) => {
  queue = queue.then(async () => {
    const outcomes: (TaskOutcome | null)[] = [];
    for (const task of request.tasks) {
      try {
        // Only a parse awaits: a file without the marker takes no turn of the microtask queue.
        const read = readTask(task);
        if (!isPending(read)) outcomes.push(read === UNSTAMPED_NO_TAGS ? null : read);
        else outcomes.push(await parsePending(read));
      } catch (err) {
        outcomes.push({ error: `cannot scan file: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
    port.postMessage({ id: request.id, outcomes } satisfies BatchReply);
  });
});
