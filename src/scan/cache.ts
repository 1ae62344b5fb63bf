// The persistent scan cache's policy: per scanned root (and pattern set), the stamp (size,
// mtime, ctime) and content hash of every file seen → what the scan found in it. A warm run
// stats the files and reads only those whose stamp changed. The file format and its reading
// and writing are cache-file.ts; what makes a folder or a file trustworthy is cache-trust.ts.
//
// Where: $SPEKY_CACHE_DIR, else $XDG_CACHE_HOME/speky-ts, else ~/.cache/speky-ts; never in the
// scanned tree. The folder must be ours alone (else the cache is neither read nor written);
// a cache file is used only if it is ours alone, signed with our key and valid in every field;
// a remembered walk is used only if every file it lists is under the walk's start.
import { createHash } from "node:crypto";
import path from "node:path";
import { statSync } from "node:fs";
import { readCacheFile, walkId, writeCacheFile, type CachedWalk, type CacheFile, type CacheNote } from "./cache-file.js";
import { prepareCacheDir } from "./cache-trust.js";
import { cacheDir } from "./cache-dir.js";
import type { FileResult } from "./file.js";
import { A_WALK_STAMP, NOT_A_FILE } from "./stat-rows.js";
import { startStatWorker, StatSplit, STAT_SPLIT_MIN } from "./stat-split.js";
import type { DirStamp, WalkCache } from "./walk.js";
import type { CacheEntry, FileStamp } from "./worker-task.js";

export { cacheKey, CacheFile, MAX_CACHE_BYTES, readCacheFile, writeCacheFile } from "./cache-file.js";

/**
 * A file whose mtime or ctime is this close to (or after) the moment the scan that cached it
 * started may have changed again within the same timestamp tick: its content is checked.
 * Kernel timestamps lag the clock by up to a tick (a few ms); file systems that store whole
 * seconds (FAT, some network ones) get the wide window.
 */
export const RACY_MS = 100;
const RACY_COARSE_MS = 2000;

export { cacheDir };

/** Paths under `base` are kept relative to it (shorter), others absolute. */
class PathKeys {
  private readonly prefix: string;
  constructor(base: string) {
    this.prefix = base.endsWith(path.sep) ? base : base + path.sep;
  }
  key(absPath: string): string {
    return absPath.startsWith(this.prefix) ? absPath.slice(this.prefix.length) : absPath;
  }
  absolute(key: string): string {
    return path.isAbsolute(key) ? key : this.prefix + key;
  }
}

/** What a cache file holds for a file: an entry, or a row of the cache file this run read. */
type Kept = CacheEntry | number;

/** Whether the file still has the cached stamp (size, mtime, ctime): then its content is the cached one. */
export function isUnchanged(absPath: string, cached: FileStamp): boolean {
  const st = statSync(absPath, { throwIfNoEntry: false });
  return st !== undefined && st.isFile() && st.size === cached.size && st.mtimeMs === cached.mtimeMs && st.ctimeMs === cached.ctimeMs;
}

/** The same, for a stamp taken already (stat-rows.ts: row `at` of `rows`). */
function rowUnchanged(rows: Float64Array, at: number, cached: FileStamp): boolean {
  const i = at * 3;
  return rows[i] !== NOT_A_FILE && rows[i] === cached.size && rows[i + 1] === cached.mtimeMs && rows[i + 2] === cached.ctimeMs;
}

export interface ScanCacheOptions {
  /** What was scanned (roots and patterns): one cache file per scope. */
  scope: unknown;
  /** Cached paths are stored relative to this directory. */
  base: string;
  /** Keep the entries of files this run doesn't visit (a scan restricted to some files). */
  merge: boolean;
  dir?: string;
  /** Hears why the cache was not used or not written (--verbose). */
  note?: CacheNote;
  /** May a worker stat the cached files meanwhile (stat-split.ts), when there are many. */
  statWorker?: boolean;
}

/** What the last saved ScanCache of this process did (tests and the bench look). */
export interface CacheRun {
  file: string;
  /** Files told unchanged by their stamp, not read. */
  hits: number;
  /** Files read (new, changed, or whose stamp couldn't be trusted). */
  misses: number;
  written: boolean;
}

let lastRun: CacheRun | null = null;

export function lastCacheRun(): CacheRun | null {
  return lastRun;
}

/** What the cache knows of a file that changed, or may have: its result stands if its content hash does. */
export interface Previous {
  stamp: FileStamp;
  hash: string | null;
  entry: () => CacheEntry;
}

/** Fewer bytes than any cached file takes in the cache file (its path and three numbers). */
const MIN_BYTES_PER_FILE = 32;

export class ScanCache implements WalkCache {
  readonly file: string;
  private readonly scope: string;
  private readonly keys: PathKeys;
  private readonly started = Date.now();
  private readonly old: CacheFile | null;
  /** Path key → what the next cache file holds for it. */
  private readonly next = new Map<string, Kept>();
  private readonly nextWalks = new Map<string, CachedWalk>();
  /** With a split: the row of each folder or ignore file a walk stamped; file rows follow them. */
  private readonly stampRows = new Map<string, number>();
  /** Directories checked by this run: unchanged or not. */
  private readonly dirsChecked = new Map<string, boolean>();
  private changed = false;
  /** Where the next file looked up is likely to be: files come in the order they were cached. */
  private cursor = 0;
  /** The cached files' stamps, taken on two threads (stat-split.ts); null: one stat per lookup. */
  private readonly split: StatSplit | null = null;
  private hits = 0;
  private misses = 0;

  /** Why the cache folder can't be used (then nothing is read nor written), or null. */
  private readonly unusable: string | null;
  private readonly note: CacheNote;

  constructor(private readonly options: ScanCacheOptions) {
    this.scope = createHash("sha256").update(JSON.stringify(options.scope)).digest("hex");
    const dir = options.dir ?? cacheDir();
    this.file = path.join(dir, `scan-${this.scope.slice(0, 24)}.json`);
    this.keys = new PathKeys(options.base);
    this.note = options.note ?? (() => {});
    this.unusable = prepareCacheDir(dir, true);
    if (this.unusable) this.note(`scan cache not used: ${this.unusable} (${dir})`);
    // A cache file big enough to hold STAT_SPLIT_MIN files: the stat worker boots meanwhile.
    const early = !this.unusable && options.statWorker && (statSync(this.file, { throwIfNoEntry: false })?.size ?? 0) >= STAT_SPLIT_MIN * MIN_BYTES_PER_FILE ? startStatWorker() : null;
    this.old = this.unusable ? null : readCacheFile(this.file, this.scope, this.note);
    if (this.old && options.statWorker && this.old.paths.length >= STAT_SPLIT_MIN) {
      // The walks' folders and ignore files first: the walks are checked before the files.
      for (const walk of this.old.walks.values()) for (const [key] of walk.dirs) if (!this.stampRows.has(key)) this.stampRows.set(key, this.stampRows.size);
      const stamped = [...this.stampRows.keys()];
      this.split = new StatSplit(
        [...stamped, ...this.old.paths].map((key) => this.keys.absolute(key)),
        early ?? undefined,
        stamped.length,
      );
    } else void early?.terminate();
    if (!this.old) this.changed = true;
    else if (options.merge) {
      this.old.paths.forEach((p, row) => this.next.set(p, row));
      for (const [id, w] of this.old.walks) this.nextWalks.set(id, w);
    }
  }

  /** No previous scan to reuse: every file will be read. */
  get empty(): boolean {
    return this.old === null;
  }

  /** A stamp taken safely before the caching scan started: an equal stamp then means unchanged. */
  private trusted(stamp: DirStamp | FileStamp): boolean {
    const window = stamp.mtimeMs % 1000 === 0 && stamp.ctimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
    return Math.max(stamp.mtimeMs, stamp.ctimeMs) < this.old!.started - window;
  }

  private dirUnchanged(key: string, stamp: DirStamp): boolean {
    let same = this.dirsChecked.get(key);
    if (same === undefined) {
      const row = this.stampRows.get(key);
      if (this.split && row !== undefined) {
        const rows = this.split.stampsUpTo(this.stampRows.size);
        same = rows[3 * row] === A_WALK_STAMP && rows[3 * row + 1] === stamp.mtimeMs && rows[3 * row + 2] === stamp.ctimeMs;
      } else {
        const st = statSync(this.keys.absolute(key), { throwIfNoEntry: false });
        // A walk stamps the folders it listed and the ignore files it read (src/fs/globs.ts).
        same = st !== undefined && (st.isDirectory() || st.isFile()) && st.mtimeMs === stamp.mtimeMs && st.ctimeMs === stamp.ctimeMs;
      }
      same &&= this.trusted(stamp);
      this.dirsChecked.set(key, same);
    }
    return same;
  }

  /**
   * A walk of the previous run whose directories are all unchanged: its files, again. Only if
   * every file is under `start`: a walk row naming anything else (a FIFO, /etc/...) was not
   * written by a walk of this start, and is not used.
   */
  lookup(start: string, rule: string): string[] | null {
    const id = walkId(this.keys.key(start), rule);
    const walk = this.old?.walks.get(id);
    if (!walk) return null;
    const files = walk.files.map((key) => this.keys.absolute(key));
    const prefix = start.endsWith(path.sep) ? start : start + path.sep;
    const outside = files.find((f) => !f.startsWith(prefix) || (f.includes("..") && f.split(path.sep).includes("..")));
    if (outside !== undefined) {
      this.note(`scan cache walk of ${start} not used: it lists a file outside it`);
      return null;
    }
    if (!walk.dirs.every(([key, stamp]) => this.dirUnchanged(key, stamp))) return null;
    this.nextWalks.set(id, walk);
    return files;
  }

  store(start: string, rule: string, files: string[], dirs: Map<string, DirStamp>): void {
    this.nextWalks.set(walkId(this.keys.key(start), rule), {
      files: files.map((f) => this.keys.key(f)).sort(),
      dirs: [...dirs].map(([dir, stamp]) => [this.keys.key(dir), stamp]),
    });
    this.changed = true;
  }

  /**
   * The cache lookup of a file: when unchanged since it was cached (same stamp, taken safely
   * before the caching scan started), its cached result, the file kept in the cache; otherwise
   * what the cache knew of it (`previous`), if anything.
   */
  // speky:speky-ts#SCAN-CACHE
  unchanged(absPath: string): { result: FileResult | null } | { previous: Previous | null } {
    const old = this.old;
    const key = this.keys.key(absPath);
    const row = old?.row(key, this.cursor);
    if (!old || row === undefined) return { previous: null };
    this.cursor = row + 1;
    const stamp = old.stamp(row);
    if (this.trusted(stamp) && (this.split ? rowUnchanged(this.split.stamps(), this.stampRows.size + row, stamp) : isUnchanged(absPath, stamp))) {
      this.next.set(key, row);
      this.hits++;
      return { result: old.result(row) };
    }
    return { previous: { stamp, hash: old.hash(row), entry: () => old.entry(row) } };
  }

  /** The entry of a file read by this run. */
  record(absPath: string, entry: CacheEntry): void {
    this.next.set(this.keys.key(absPath), entry);
    this.misses++;
    this.changed = true;
  }

  /** Writes the cache if this run changed it; a cache that can't be written is no error. */
  save(): void {
    this.split?.close();
    if (this.unusable) return;
    const old = this.old;
    const dropped = !this.options.merge && old !== null && (old.paths.length !== this.next.size || old.walks.size !== this.nextWalks.size);
    lastRun = { file: this.file, hits: this.hits, misses: this.misses, written: false };
    if (!this.changed && !dropped) return;
    const entries = new Map<string, CacheEntry>();
    for (const [key, kept] of this.next) entries.set(key, typeof kept === "number" ? old!.entry(kept) : kept);
    try {
      writeCacheFile(this.file, this.scope, this.started, entries, this.nextWalks);
      lastRun.written = true;
    } catch (err) {
      // read-only or full disk, no key, too large: the next run scans cold
      this.note(`scan cache not written: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
