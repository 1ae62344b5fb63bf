// A scan's way to its files' outcomes when the cache can't answer for the whole tree (scan.ts
// replayed): per file the cached outcome, or a read with a byte-level prefilter and, for the
// files holding the marker, a parse (worker-task.ts), in a worker pool when it pays (pool.ts),
// fed while the walk still runs for a cold scan (walk-feed.ts). Loaded only then.

import { relieveHeap } from "../../heap.js";
import { Turns } from "../../turns.js";
import type { Previous, ScanCache } from "../cache/cache.js";
import { saveLater } from "../cache/cache-save.js";
import type { FileResult } from "../engine/file.js";
import type { ScanOptions } from "../options.js";
import { trace } from "../trace.js";
import type { FileJobs, WalkSetup } from "../walk/walk.js";
import { Progress } from "./progress.js";
import { runTasks } from "./run-tasks.js";
import { startWorkers } from "./shared-pool.js";
import { optimizeLateIfAllowed } from "./v8-flags.js";
import { type FedFiles, WalkFeed } from "./walk-feed.js";
import { type CacheEntry, type FileTask, noTagsResult, type TaskOutcome } from "./worker-task.js";

export type Outcome = { result: FileResult } | { error: string };

/** The outcome of every file without the marker: they only count. */
const NO_TAGS: Outcome = { result: noTagsResult(null) };

const NOT_CACHED = { previous: null };

const UNREADABLE: CacheEntry = { size: -1, mtimeMs: -1, ctimeMs: -1, hash: null, result: null };

/** A cached or read file's outcome: its result, or NO_TAGS (shared) when it holds none. */
const outcomeOf = (cached: { result: FileResult | null }): Outcome => (cached.result ? { result: cached.result } : NO_TAGS);

/**
 * Every job's outcome, in job order: the cached one when the file is unchanged, else from a
 * read (and a parse if it holds the marker). A file that can't be read or scanned is a
 * warning, not the end of the scan.
 */
async function scanJobs(jobs: FileJobs, cache: ScanCache | null, options: ScanOptions, feed: WalkFeed | null): Promise<Outcome[]> {
  trace(`walk: ${jobs.length} files`);
  relieveHeap();
  const turns = new Turns(options.cooperative === true);
  const report = options.onProgress;
  report?.(0, jobs.length);
  if (options.afterWalk) await options.afterWalk(jobs.length);
  const outcomes = new Array<Outcome>(jobs.length);
  const settle = (i: number, outcome: TaskOutcome, before: Previous | null) => {
    if ("error" in outcome) {
      // Kept as a file of the walk, with a stamp no file has: read again next time.
      cache?.record(jobs.absPaths[i], UNREADABLE);
      outcomes[i] = outcome;
      return;
    }
    // A reuse comes from a cached entry (the hash matched), never without.
    const entry = "entry" in outcome ? outcome.entry : { ...before!.entry(), ...outcome.reuse };
    cache?.record(jobs.absPaths[i], entry);
    outcomes[i] = outcomeOf(entry);
  };
  let done = 0;
  let streamed: FedFiles | null = null;
  if (feed) {
    const progress = new Progress(jobs.length);
    try {
      streamed = await feed.finish((n) => {
        progress.add(n);
        done += n;
        report?.(done, jobs.length);
      });
    } finally {
      progress.end();
    }
    if (streamed) trace("read and parse while walking");
    relieveHeap();
  }
  const tasks: FileTask[] = [];
  const taskJobs: number[] = [];
  const previous: (Previous | null)[] = [];
  // Unchanged files are told here, one stat each: faster than starting workers to share them.
  for (let i = 0; i < jobs.length; i++) {
    if (turns.due()) {
      report?.(i - tasks.length, jobs.length);
      await turns.take();
    }
    const absPath = jobs.absPaths[i];
    const fed = streamed?.get(jobs.real(i));
    if (fed && fed.absPath === absPath) {
      settle(i, fed.outcome, null);
      continue;
    }
    const found = cache ? cache.unchanged(absPath) : NOT_CACHED;
    if ("result" in found) {
      outcomes[i] = outcomeOf(found);
      continue;
    }
    const before = found.previous;
    tasks.push({ absPath, cached: before && { ...before.stamp, hash: before.hash }, unstamped: !cache });
    taskJobs.push(i);
    previous.push(before);
  }
  trace(`cache: ${jobs.length - tasks.length} unchanged or read, ${tasks.length} to read`);
  const progress = new Progress(tasks.length);
  done = jobs.length - tasks.length;
  report?.(done, jobs.length);
  const onProgress = (n: number) => {
    progress.add(n);
    done += n;
    report?.(done, jobs.length);
  };
  let settled: TaskOutcome[];
  try {
    settled = await runTasks(tasks, { parallel: options.parallel, onProgress, turns });
  } finally {
    progress.end();
  }
  for (const [k, outcome] of settled.entries()) settle(taskJobs[k], outcome, previous[k]);
  trace("read and parse");
  if (cache) saveLater(cache);
  return outcomes;
}

/**
 * Reading while walking (walk-feed.ts), for a scan that reads every file afresh in one go (a
 * command line's or a server's first), not a warm one, nor one held after its walk (afterWalk).
 * A server's too: measured paired, 7 rounds, its spawn → first code reference on the bench
 * tree took 2,334 ms without, 2,157 with (medians). With it, V8 optimizes late where allowed
 * (v8-flags.ts) until `ended` is called (Reading.end).
 */
function feedFor(options: ScanOptions, cache: ScanCache | null): { feed: WalkFeed; ended: () => void } | null {
  if (options.parallel === false || options.afterWalk || (cache && !cache.empty)) return null;
  const ended = optimizeLateIfAllowed();
  try {
    if (options.eagerWorkers) startWorkers();
    return { feed: new WalkFeed(!cache), ended };
  } catch (err) {
    // No Reading holds `ended` then: V8's defaults again here, or a server keeps the late flags.
    ended();
    throw err;
  }
}

/** A server's scan (cooperative) lists folders on the thread pool; a command line's on its own thread. */
function walkSetup(options: ScanOptions, cache: ScanCache | null, feed: WalkFeed | null): WalkSetup {
  return { filter: cache?.walks, onFile: feed?.onFile, onWalk: feed?.onWalk, blocking: options.cooperative !== true };
}

/** One scan's reading: the walk it feeds, then every job's outcome. */
export class Reading {
  private readonly feed: WalkFeed | null;
  /** The scan is done, or failed: V8's defaults again (v8-flags.ts); more calls do nothing. */
  readonly end: () => void;
  readonly walkSetup: WalkSetup;

  /** `walks`: the jobs come from a walk (not pre-commit mode's named files), which may feed the reads. */
  constructor(
    private readonly cache: ScanCache | null,
    private readonly options: ScanOptions,
    walks: boolean,
  ) {
    const fed = walks ? feedFor(options, cache) : null;
    this.feed = fed?.feed ?? null;
    this.end = fed?.ended ?? (() => {});
    this.walkSetup = walkSetup(options, cache, this.feed);
  }

  outcomes(jobs: FileJobs): Promise<Outcome[]> {
    return scanJobs(jobs, this.cache, this.options, this.feed);
  }
}
