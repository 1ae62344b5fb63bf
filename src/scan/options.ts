// What a caller may ask of a scan (scan.ts), in a module of its own: the stages read it too.
import type { CacheRun } from "./cache/cache.js";

export interface ScanOptions {
  /**
   * Project names whose tags are reported (case-insensitive); default: the targets'
   * projects. Tags of other projects are only counted.
   */
  knownProjects?: Iterable<string>;
  /** Scan only these absolute paths among the matched files (pre-commit mode). */
  onlyFiles?: string[];
  /** Use the persistent cache (cache.ts). Default: false for this API; the CLI turns it on. */
  cache?: boolean;
  /** Worker pool: true always, false never, undefined when it pays. */
  parallel?: boolean;
  /** Give the event loop a turn every few ms (a server scanning in the background). */
  cooperative?: boolean;
  /** Files settled so far of the files walked; first called right after the walk. */
  onProgress?: (done: number, total: number) => void;
  /** Awaited between the walk and the reads (a test hook holds a background scan here). */
  afterWalk?: (total: number) => Promise<void>;
  /** Hears why the cache was not used or not written (--verbose). */
  cacheNote?: (line: string) => void;
  /** Hears what the cache did (files unchanged, read, replayed, written), once it is saved after the scan. */
  cacheSaved?: (run: CacheRun) => void;
  /**
   * Start the workers before the walk when every file is to be read (the command line's
   * cold scans); otherwise from the walk's POOL_MIN_FILES-th file, when the tree proves big.
   */
  eagerWorkers?: boolean;
}

export type PathScanOptions = Pick<ScanOptions, "cache" | "parallel" | "cacheNote" | "cacheSaved" | "eagerWorkers"> & {
  /** Follow links under the folders to anywhere (--allow-outside). */
  allowOutside?: boolean;
  /** Skip git-ignored files (default true; --no-ignore: false). */
  ignore?: boolean;
};
