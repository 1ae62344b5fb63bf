// A cache file's rows, by columns: as read (cache-file.ts reads it), looked up by path key, with
// the walks it remembers; and as written (RowColumns, for cache-write.ts). Plain memory: no I/O.
import { compareStrings } from "../../diagnostics.js";
import type { FileResult } from "../engine/file.js";
import { StampColumn } from "../read/stamp-column.js";
import type { CacheEntry, FileStamp } from "../read/worker-task.js";
import type { DirStamp } from "../walk/walk.js";
import type { PathColumn } from "./path-column.js";

/** A walk as kept between runs: paths as keys (see ScanCache). */
export interface CachedWalk {
  /** Its files' keys (of a walk read from a cache file: decoded on first use). */
  readonly files: string[];
  dirs: [key: string, stamp: DirStamp][];
  /** The links it went through: key as walked, key of the real path. */
  links: [abs: string, real: string][];
  /** Its files as runs of rows of the cache file it was read from (WalkRow). */
  runs?: number[];
  /** Read from a cache file, every one of its file keys relative to the base, with no `..` part. */
  plainFiles?: boolean;
  /** Read from a cache file: how many files, told without their keys. */
  fileCount?: number;
  /** Read from a cache file: whether every file key starts with `prefix`, told without the keys. */
  keysStartWith?(prefix: string): boolean;
  /**
   * A walk that listed: its files' keys one at a time, in the walk's order, none kept (the
   * writer needs only their rows: a million keys held at once took ~40 MB).
   */
  eachFile?(visit: (key: string) => void): void;
}

export const walkId = (startKey: string, rule: string) => `${startKey}\0${rule}`;

/**
 * Whether a key can be a line of the cache file's paths (cache-file.ts): no newline, no NUL, and
 * valid UTF-16 (a lone surrogate would come back from UTF-8 as another name). A file whose key
 * can't is not cached: read again each run; a walk listing one is not remembered.
 */
export const cacheableKey = (key: string) => !/[\n\0\ud800-\udfff]/.test(key) || !/[\n\0]|\p{Cs}/u.test(key);

/** What a lookup of an unchanged file answers: shared, so a warm scan allocates nothing per file. */
export interface Hit {
  result: FileResult | null;
}

const HIT_NO_TAGS: Hit = { result: null };

/** A cache file as read: its columns, and an index by path key. */
export class CacheFile {
  private index: Map<string, number> | undefined;
  private readonly found: Map<number, [hash: string, hit: Hit]>;
  readonly walks = new Map<string, CachedWalk>();

  constructor(
    readonly started: number,
    readonly paths: PathColumn,
    /** size, mtime and ctime of each row. */
    private readonly stamps: Float64Array,
    found: [index: number, hash: string, result: FileResult][],
  ) {
    this.found = new Map(found.map(([i, hash, result]) => [i, [hash, { result }]]));
  }

  /** Path key → row, built on first need (a warm scan visits the rows in order: see `row`). */
  get rows(): Map<string, number> {
    this.index ??= new Map(this.paths.all().map((p, i) => [p, i]));
    return this.index;
  }

  /** The row of `key`, tried first at `guess` (the row after the previous one looked up). */
  row(key: string, guess: number): number | undefined {
    return guess < this.paths.length && this.paths.at(guess) === key ? guess : this.rows.get(key);
  }

  /**
   * A walk read with this file, its files as row runs (WalkRow) and keys that are no row:
   * their count and the prefix test told from the runs alone, the keys made on first use.
   */
  walk(runs: number[], unrowed: string[], rest: Pick<CachedWalk, "dirs" | "links" | "plainFiles">): CachedWalk {
    const paths = this.paths;
    let files: string[] | undefined;
    let count = unrowed.length;
    for (let i = 1; i < runs.length; i += 2) count += runs[i];
    return {
      ...rest,
      runs,
      get files() {
        if (!files) {
          const all = paths.all();
          files = [];
          for (let i = 0; i < runs.length; i += 2) for (let row = runs[i]; row < runs[i] + runs[i + 1]; row++) files.push(all[row]);
          files.push(...unrowed);
        }
        return files;
      },
      fileCount: count,
      keysStartWith(prefix) {
        if (!unrowed.every((key) => key.startsWith(prefix))) return false;
        for (let i = 0; i < runs.length; i += 2) if (!paths.allStartWith(runs[i], runs[i + 1], prefix)) return false;
        return true;
      },
    };
  }

  stamp(row: number): FileStamp {
    return { size: this.size(row), mtimeMs: this.mtime(row), ctimeMs: this.ctime(row) };
  }

  size(row: number): number {
    return this.stamps[3 * row];
  }

  mtime(row: number): number {
    return this.stamps[3 * row + 1];
  }

  ctime(row: number): number {
    return this.stamps[3 * row + 2];
  }

  hash(row: number): string | null {
    return this.found.get(row)?.[0] ?? null;
  }

  hit(row: number): Hit {
    return this.found.get(row)?.[1] ?? HIT_NO_TAGS;
  }

  result(row: number): FileResult | null {
    return this.hit(row).result;
  }

  entry(row: number): CacheEntry {
    return { ...this.stamp(row), hash: this.hash(row), result: this.result(row) };
  }

  /** The rows holding a result (the files with tags or warnings), each with it. */
  results(): [row: number, result: FileResult][] {
    const results: [number, FileResult][] = [];
    for (const [row, [, hit]] of this.found) if (hit.result) results.push([row, hit.result]);
    return results;
  }

  /** Every entry by path key (tests and tools; a scan reads rows as needed). */
  entries(): Map<string, CacheEntry> {
    return new Map(this.paths.all().map((p, i) => [p, this.entry(i)]));
  }
}

/**
 * The rows a cache file is written from, by columns: a key and a stamp per file, a hash and a
 * result only for the files holding the marker (no object per file: a cold scan of a million
 * files records a million). Added in any order; `sort` orders them by key (compareStrings), the
 * last of rows with the same key standing.
 */
export class RowColumns {
  private readonly keys: string[] = [];
  private readonly stamps = new StampColumn();
  private readonly found = new Map<number, [hash: string, result: FileResult]>();
  private order: Uint32Array | null = null;

  get length(): number {
    return this.order ? this.order.length : this.keys.length;
  }

  /** A key that is not cacheableKey is not added. */
  add(key: string, size: number, mtimeMs: number, ctimeMs: number, hash: string | null, result: FileResult | null): void {
    if (!cacheableKey(key)) return;
    const i = this.keys.length;
    this.keys.push(key);
    this.stamps.set(i, size, mtimeMs, ctimeMs);
    if (hash && result) this.found.set(i, [hash, result]);
    this.order = null;
  }

  addEntry(key: string, e: CacheEntry): void {
    this.add(key, e.size, e.mtimeMs, e.ctimeMs, e.hash, e.result);
  }

  /** In key order from now on; of rows with the same key, the last added. */
  sort(): void {
    const keys = this.keys;
    // A scan records its files in path order, so its keys mostly come sorted: one pass tells,
    // where the sort's comparisons took 12-30 ms for the bench tree's 25,402 keys (2-3 ms the
    // pass) and the save of 1,000,000 small files' cache 1,378-1,395 ms instead of 554-618.
    let ascending = true;
    for (let i = 1; i < keys.length && ascending; i++) ascending = keys[i - 1] < keys[i];
    if (ascending) {
      this.order = null;
      return;
    }
    const all = new Uint32Array(keys.length);
    for (let i = 0; i < all.length; i++) all[i] = i;
    all.sort((a, b) => compareStrings(keys[a], keys[b]) || a - b);
    let n = 0;
    for (let i = 0; i < all.length; i++) {
      if (i + 1 < all.length && keys[all[i + 1]] === keys[all[i]]) continue;
      all[n++] = all[i];
    }
    this.order = all.subarray(0, n);
  }

  private at(i: number): number {
    return this.order ? this.order[i] : i;
  }

  key(i: number): string {
    return this.keys[this.at(i)];
  }

  /** Row i's size, mtime and ctime into `into` from `offset`. */
  stampInto(i: number, into: Float64Array, offset: number): void {
    this.stamps.copyInto(this.at(i), into, offset);
  }

  /** Row i's hash and result when its file holds the marker. */
  foundAt(i: number): [hash: string, result: FileResult] | undefined {
    return this.found.get(this.at(i));
  }
}
