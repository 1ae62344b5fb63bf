// The persistent scan cache's policy: per scanned root (and pattern set), the stamp (size,
// mtime, ctime) and content hash of every file seen → what the scan found in it. A warm run
// stats the files and reads only those whose stamp changed. The file format and its reading
// are cache-file.ts, its writing cache-write.ts; what makes a folder or a file trustworthy is cache-trust.ts;
// the walks it remembers, the walker's filter, are cache-walks.ts.
//
// Where: $SPEKY_CACHE_DIR, else $XDG_CACHE_HOME/speky-ts, else ~/.cache/speky-ts; never in the
// scanned tree. The folder must be ours alone (else the cache is neither read nor written);
// a cache file is used only if it is ours alone, signed with our key and valid in every field;
// a remembered walk is used only if every file it lists is under the walk's start.
import { createHash } from "node:crypto";
import path from "node:path";
import { cacheDir } from "../../fs/cache-dir.js";
import { prepareCacheDir } from "../../fs/cache-trust.js";
import { statStamp } from "../../fs/stamp.js";
import { relieveHeap } from "../../heap.js";
import { Turns } from "../../turns.js";
import type { FileResult } from "../engine/file.js";
import type { CacheEntry, FileStamp } from "../read/worker-task.js";
import { type CacheNote, readCacheFile } from "./cache-file.js";
import { type CacheFile, type Hit, RowColumns } from "./cache-rows.js";
import { CachedWalks, PathKeys, Probe } from "./cache-walks.js";
import { writeCacheFile } from "./cache-write.js";

export { MAX_CACHE_BYTES, readCacheFile } from "./cache-file.js";
export { cacheKey } from "./cache-key.js";
export { CacheFile } from "./cache-rows.js";
export { writeCacheFile } from "./cache-write.js";

/**
 * A file whose mtime or ctime is this close to (or after) the moment the scan that cached it
 * started may have changed again within the same timestamp tick: its content is checked.
 * Kernel timestamps lag the clock by up to a tick (a few ms); file systems that store whole
 * seconds (FAT, some network ones) get the wide window.
 */
export const RACY_MS = 100;
const RACY_COARSE_MS = 2000;

export { cacheDir };

/** One stamp taken at a time (statStamp writes it here). */
const taken = new Float64Array(3);

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
  /** Hears what the run did, once saved (ScanOptions.cacheSaved). */
  saved?: (run: CacheRun) => void;
  /** A server's scan: its loops over cached folders and files give the event loop turns (ScanOptions.cooperative). */
  cooperative?: boolean;
}

/** What a ScanCache did, told when it is saved. */
export interface CacheRun {
  file: string;
  /** Files told unchanged by their stamp, not read. */
  hits: number;
  /** Files read (new, changed, or whose stamp couldn't be trusted). */
  misses: number;
  written: boolean;
  /** Answered by a replay (scan.ts): nothing changed, no file looked up on its own. */
  replayed: boolean;
}

/** What the cache knows of a file that changed, or may have: its result stands if its content hash does. */
export interface Previous {
  stamp: FileStamp;
  hash: string | null;
  entry: () => CacheEntry;
}

const NOT_CACHED = { previous: null };

export class ScanCache {
  readonly file: string;
  private readonly scope: string;
  private readonly keys: PathKeys;
  private readonly started = Date.now();
  private readonly old: CacheFile | null;
  /** Rows of the cache file read that the next one keeps (a flag per row: no object per file). */
  private readonly kept: Uint8Array;
  private keptCount = 0;
  /** The files this run read, by columns: the next cache file's other rows. */
  private readonly recorded = new RowColumns();
  /** The keys recorded, when a cache file was read: its rows recorded anew are not kept, and `save` counts them. */
  private readonly recordedKeys: Set<string> | null;
  /** The walks remembered: the walker's filter (a walk whose folders are all unchanged answers for itself). */
  readonly walks: CachedWalks;
  private changed = false;
  /** Where the next file looked up is likely to be: files come in the order they were cached. */
  private cursor = 0;
  private hits = 0;
  private misses = 0;
  private replayed = false;

  /** Why the cache folder can't be used (then nothing is read nor written), or null. */
  private readonly unusable: string | null;
  private readonly note: CacheNote;
  private readonly turns: Turns;

  constructor(private readonly options: ScanCacheOptions) {
    this.scope = createHash("sha256").update(JSON.stringify(options.scope)).digest("hex");
    const dir = options.dir ?? cacheDir();
    this.file = path.join(dir, `scan-${this.scope.slice(0, 24)}.json`);
    this.keys = new PathKeys(options.base);
    this.note = options.note ?? (() => {});
    this.unusable = prepareCacheDir(dir, true);
    if (this.unusable) this.note(`scan cache not used: ${this.unusable} (${dir})`);
    this.old = this.unusable ? null : readCacheFile(this.file, this.scope, this.note);
    this.kept = new Uint8Array(this.old?.paths.length ?? 0);
    this.recordedKeys = this.old ? new Set() : null;
    this.turns = new Turns(options.cooperative === true);
    this.walks = new CachedWalks(this.old, this.keys, (mtimeMs, ctimeMs) => this.trusted(mtimeMs, ctimeMs), this.note, this.turns);
    if (!this.old) this.changed = true;
    else if (options.merge) {
      // A row read again this run is replaced by its record (see save).
      this.keepAll();
      for (const [id, w] of this.old.walks) this.walks.next.set(id, w);
    }
  }

  /** No previous scan to reuse: every file will be read. */
  get empty(): boolean {
    return this.old === null;
  }

  /** A stamp taken safely before the caching scan started: an equal stamp then means unchanged. */
  private trusted(mtimeMs: number, ctimeMs: number): boolean {
    const window = mtimeMs % 1000 === 0 && ctimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
    return Math.max(mtimeMs, ctimeMs) < this.old!.started - window;
  }

  /** A walk filter for a replay (see `replay`); null when there is nothing to replay. */
  probe(): Probe | null {
    return this.old && !this.options.merge ? new Probe(this.walks) : null;
  }

  /**
   * The cached results of an unchanged tree: when the probe's walks (all remembered, none of
   * their folders changed) cover every row of the cache file and no file's stamp changed (the
   * previous scan saw exactly these files, as they are; a server's event loop takes turns
   * between chunks of rows), the rows holding a result, each with it and its path; the run
   * then keeps the cache as it is. Else null.
   */
  // speky:speky-ts#SCAN-REPLAY
  async replay(probe: Probe): Promise<{ files: number; results: [absPath: string, result: FileResult][] } | null> {
    const old = this.old!;
    const rows = old.paths.length;
    const covered = new Uint8Array(rows);
    let count = 0;
    for (const walk of probe.walks) {
      const runs = walk.runs;
      if (!runs) return null;
      for (let i = 0; i < runs.length; i += 2) {
        for (let row = runs[i]; row < runs[i] + runs[i + 1]; row++) {
          count += 1 - covered[row];
          covered[row] = 1;
        }
      }
    }
    if (count !== rows) return null;
    if (!(await this.turns.every(rows, (row) => this.rowUnchanged(row)))) return null;
    this.keepAll();
    this.hits = rows;
    this.replayed = true;
    return { files: rows, results: old.results().map(([row, result]) => [this.keys.absolute(old.paths.at(row)), result]) };
  }

  /**
   * The cache lookup of a file: when unchanged since it was cached (same stamp, taken safely
   * before the caching scan started), its cached result, the file kept in the cache; otherwise
   * what the cache knew of it (`previous`), if anything.
   */
  // speky:speky-ts#SCAN-CACHE
  // Called once per file of a warm scan: nothing is allocated for an unchanged file.
  unchanged(absPath: string): Hit | { previous: Previous | null } {
    const old = this.old;
    if (!old) return NOT_CACHED;
    const row = old.row(this.keys.key(absPath), this.cursor);
    if (row === undefined) return NOT_CACHED;
    this.cursor = row + 1;
    if (this.rowUnchanged(row, absPath)) {
      if (this.kept[row] === 0) {
        this.kept[row] = 1;
        this.keptCount++;
      }
      this.hits++;
      return old.hit(row);
    }
    return { previous: { stamp: old.stamp(row), hash: old.hash(row), entry: () => old.entry(row) } };
  }

  /** Whether the file of `row` still has its cached stamp (size, mtime, ctime), taken safely: then its content is the cached one. */
  private rowUnchanged(row: number, absPath?: string): boolean {
    const old = this.old!;
    const mtimeMs = old.mtime(row);
    const ctimeMs = old.ctime(row);
    if (!this.trusted(mtimeMs, ctimeMs)) return false;
    if (statStamp(absPath ?? this.keys.statPath(old.paths.at(row)), taken, 0) !== "file") return false;
    return taken[0] === old.size(row) && taken[1] === mtimeMs && taken[2] === ctimeMs;
  }

  /** Every row of the cache file read goes to the next one (unless recorded anew: see save). */
  private keepAll(): void {
    this.kept.fill(1);
    this.keptCount = this.kept.length;
  }

  /** The entry of a file read by this run. */
  record(absPath: string, entry: CacheEntry): void {
    const key = this.keys.key(absPath);
    this.recorded.addEntry(key, entry);
    this.recordedKeys?.add(key);
    this.misses++;
    this.changed = true;
  }

  /** Writes the cache if this run changed it; a cache that can't be written is no error. */
  save(): void {
    if (this.unusable) return;
    relieveHeap();
    const old = this.old;
    const dropped =
      !this.options.merge &&
      old !== null &&
      (old.paths.length !== this.keptCount + this.recordedKeys!.size || old.walks.size !== this.walks.next.size);
    const run: CacheRun = { file: this.file, hits: this.hits, misses: this.misses, written: false, replayed: this.replayed };
    if (this.changed || this.walks.changed || dropped) run.written = this.write();
    this.options.saved?.(run);
  }

  /** Writes the next cache file; false when it can't be written (no error: the next run scans cold). */
  private write(): boolean {
    const old = this.old;
    // Sorted by path when written: the order a scan looks files up in (scan.ts), so that the
    // next run's lookups hit `cursor`.
    const rows = this.recorded;
    if (old) {
      const replaced = this.recordedKeys!;
      this.kept.forEach((k, row) => {
        const key = old.paths.at(row);
        if (k === 1 && !replaced.has(key)) rows.add(key, old.size(row), old.mtime(row), old.ctime(row), old.hash(row), old.result(row));
      });
    }
    try {
      writeCacheFile(this.file, this.scope, this.started, rows, this.walks.next);
      return true;
    } catch (err) {
      // read-only or full disk, no key, too large
      this.note(`scan cache not written: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
}
