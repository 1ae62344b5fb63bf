// Settling a list of tasks at once (a warm scan's changed files, pre-commit mode's named files):
// in the pool when many, else read here with only the parses of tagged files pooled when there
// is enough of them (read/pool.ts).
import { closeSync } from "node:fs";
import { NO_TURNS, type Turns } from "../../turns.js";
import { languageForPath } from "../grammar/languages.js";
import { grammarTraps } from "../grammar/traps.js";
import { POOL_MIN_FILES, POOL_MIN_PARSE_BYTES, poolPossible } from "./pool.js";
import { pool, poolSize } from "./shared-pool.js";
import {
  type FileTask,
  isPending,
  isWhole,
  type PendingParse,
  parsePending,
  readTask,
  readWhole,
  runTask,
  type TaskOutcome,
} from "./worker-task.js";

export interface RunOptions {
  /** true: always the pool; false: never; undefined: when it pays. */
  parallel?: boolean;
  /** Called with the number of files settled since the last call. */
  onProgress?: (done: number) => void;
  /** Turns of the event loop taken by the inline loops (a server's background scan). */
  turns?: Turns;
}

/**
 * Settles every task, in parallel when it pays: many files to read go to the workers whole
 * (read, prefilter, parse); otherwise the files are read and prefiltered here and only the
 * parse of those holding the marker goes to the workers, when there is enough of it.
 * Outcomes are in task order.
 */
// speky:speky-ts#SCAN-SPEED
export async function runTasks(tasks: FileTask[], options: RunOptions = {}): Promise<TaskOutcome[]> {
  const onProgress = options.onProgress ?? (() => undefined);
  const size = options.parallel === true ? Math.max(2, poolSize()) : poolSize();
  const canPool = options.parallel !== false && poolPossible(size);
  if (canPool && (options.parallel === true || tasks.length >= POOL_MIN_FILES)) return pool(size).process(tasks, onProgress);

  const turns = options.turns ?? NO_TURNS;
  const outcomes = new Array<TaskOutcome>(tasks.length);
  /** Files holding the marker, to parse after the reads; their content kept while it is little (else read again). */
  const pending: { index: number; read: PendingParse | null; bytes: number }[] = [];
  let bytes = 0;
  let reported = 0;
  const trapsBefore = grammarTraps();
  for (let index = 0; index < tasks.length; index++) {
    if (turns.due()) {
      onProgress(index - pending.length - reported);
      reported = index - pending.length;
      await turns.take();
    }
    const first = readTask(tasks[index]);
    if (canPool && isWhole(first)) {
      // A file read whole only where it is parsed (a worker, within the pool's budget; or here, later).
      closeSync(first.fd);
      bytes += first.stamp.size;
      pending.push({ index, read: null, bytes: first.stamp.size });
      continue;
    }
    const read = isWhole(first) ? readWhole(first) : first;
    if (!isPending(read)) outcomes[index] = read;
    else if (!canPool) {
      // No pool to hand parses to: parsed now, one file's content in memory at a time.
      outcomes[index] = await parsePending(read);
      reported++;
      onProgress(1);
    } else {
      bytes += read.content.length;
      pending.push({ index, read: bytes <= POOL_MIN_PARSE_BYTES ? read : null, bytes: read.content.length });
    }
  }
  onProgress(tasks.length - pending.length - reported);
  const toPool = (from: number) =>
    pool(size).process(
      pending.slice(from).map(({ index }) => tasks[index]),
      onProgress,
      byLanguage(
        pending.slice(from).map(({ index, bytes }) => ({ absPath: tasks[index].absPath, content: { length: bytes } })),
        size,
      ),
    );
  if (canPool && pending.length >= 2 && bytes >= POOL_MIN_PARSE_BYTES) {
    // The workers read these few files again: cheaper than copying them over. Each language
    // goes to one worker unless it is too big a share: grammars load there once, in parallel.
    const parsed = await toPool(0);
    for (const [k, { index }] of pending.entries()) outcomes[index] = parsed[k];
  } else {
    for (let k = 0; k < pending.length; k++) {
      // A grammar trapped on this thread: its runtime can't be trusted, the rest go to the pool.
      if (canPool && grammarTraps() !== trapsBefore) {
        const parsed = await toPool(k);
        for (const [j, { index }] of pending.slice(k).entries()) outcomes[index] = parsed[j];
        break;
      }
      if (turns.due()) await turns.take();
      const { index, read } = pending[k];
      outcomes[index] = read ? await parsePending(read) : await runTask(tasks[index]);
      onProgress(1);
    }
  }
  return outcomes;
}

/**
 * Indexes of `files` per worker: each language whole to the least loaded worker, largest
 * first; a language holding more than a worker's share of the bytes is spread over all.
 */
export function byLanguage(files: { absPath: string; content: { length: number } }[], workers: number): number[][] {
  const groups = new Map<string, number[]>();
  files.forEach((f, i) => {
    const language = languageForPath(f.absPath) ?? "?";
    groups.set(language, [...(groups.get(language) ?? []), i]);
  });
  const size = (i: number) => files[i].content.length;
  const bytes = (g: number[]) => g.reduce((sum, i) => sum + size(i), 0);
  const share = bytes(files.map((_, i) => i)) / workers;
  const out = Array.from({ length: workers }, () => [] as number[]);
  const load = new Array<number>(workers).fill(0);
  const leastLoaded = () => load.indexOf(Math.min(...load));
  for (const group of [...groups.values()].sort((a, b) => bytes(b) - bytes(a))) {
    const spread = bytes(group) > share && group.length >= workers;
    const parts = spread ? [...group].sort((a, b) => size(b) - size(a)).map((i) => [i]) : [group];
    for (const part of parts) {
      const w = leastLoaded();
      out[w].push(...part);
      load[w] += bytes(part);
    }
  }
  return out.map((g) => g.sort((a, b) => a - b));
}
