// The scan cache's remembered walks, as the walker's filter (WalkFilter, src/fs/walk-types.ts):
// a walk of the previous run whose folders (and the ignore files it read, the dangling links it
// met) all kept their stamps answers for itself, without a readdir; a walk that listed is
// remembered for the next run. A remembered walk is used only if every file it lists is under
// the walk's start.
import { statSync } from "node:fs";
import path from "node:path";
import { type DirStamp, MISSING_STAMP, type RememberedWalk, type WalkFilter, type WalkRecord } from "../../fs/globs.js";
import { withTrailingSep } from "../../fs/paths.js";
import { statStamp } from "../../fs/stamp.js";
import type { Turns } from "../../turns.js";
import type { CacheNote } from "./cache-file.js";
import { type CachedWalk, type CacheFile, walkId } from "./cache-rows.js";

/** A cache key's path: a key is absolute, or relative to the cache's base (`prefix`: the base and a separator). */
const pathOfKey = (key: string, prefix: string) => (path.isAbsolute(key) ? key : prefix + key);

/** Paths under `base` are kept relative to it (shorter), others absolute. */
export class PathKeys {
  readonly prefix: string;
  /** The base is the working directory: a relative key names its file as it is. */
  private readonly baseIsCwd: boolean;
  constructor(base: string) {
    this.prefix = withTrailingSep(base);
    this.baseIsCwd = isWorkingDirectory(this.prefix);
  }
  key(absPath: string): string {
    return absPath.startsWith(this.prefix) ? absPath.slice(this.prefix.length) : absPath;
  }
  absolute(key: string): string {
    return pathOfKey(key, this.prefix);
  }
  /**
   * The path to stat a key's file by: the key itself when the base is the working directory
   * (`speky scan speky.yaml` in the manifest's folder), else its absolute path. The kernel then
   * resolves fewer folders and no path is built: a warm scan of the bench tree took 5-27 ms less
   * (265-311 ms instead of 270-335; four paired sets of 21 rounds, two in each order).
   */
  statPath(key: string): string {
    return this.baseIsCwd && key !== "" ? key : pathOfKey(key, this.prefix);
  }
}

/**
 * Whether `.` is the folder `prefix` names: process.cwd() says so (Node keeps the answer of its
 * first getcwd) and `.` is that folder still (not one since removed, the name made anew).
 */
function isWorkingDirectory(prefix: string): boolean {
  try {
    if (withTrailingSep(process.cwd()) !== prefix) return false;
    const here = statSync(".", { bigint: true });
    const there = statSync(prefix, { bigint: true });
    return here.ino === there.ino && here.dev === there.dev;
  } catch {
    return false;
  }
}

/** One stamp taken at a time (statStamp writes it here). */
const taken = new Float64Array(3);

/** The walks of the cache file read, and those the next one keeps. */
export class CachedWalks implements WalkFilter {
  /** By walk id: the walks the next cache file keeps. */
  readonly next = new Map<string, CachedWalk>();
  /** A walk listed this run: the cache file is to be written. */
  changed = false;
  /** Directories checked by this run: unchanged or not. */
  private readonly dirsChecked = new Map<string, boolean>();

  /**
   * `trusted`: whether a stamp was taken safely before the caching scan started (then an equal
   * one means unchanged); `turns`: a server's, taken between chunks of folders stat'ed.
   */
  constructor(
    private readonly old: CacheFile | null,
    private readonly keys: PathKeys,
    private readonly trusted: (mtimeMs: number, ctimeMs: number) => boolean,
    private readonly note: CacheNote,
    private readonly turns: Turns,
  ) {}

  private dirUnchanged(key: string, stamp: DirStamp): boolean {
    let same = this.dirsChecked.get(key);
    if (same === undefined) {
      const kind = statStamp(this.keys.statPath(key), taken, 0);
      // A walk stamps the folders it listed, the ignore files it read and its dangling links (src/fs/tree-walk.ts).
      same =
        kind === "missing"
          ? stamp.mtimeMs === MISSING_STAMP.mtimeMs && stamp.ctimeMs === MISSING_STAMP.ctimeMs
          : (kind === "directory" || kind === "file") && taken[1] === stamp.mtimeMs && taken[2] === stamp.ctimeMs;
      same &&= this.trusted(stamp.mtimeMs, stamp.ctimeMs);
      this.dirsChecked.set(key, same);
    }
    return same;
  }

  /** A walk of the previous run whose directories are all unchanged (`unchangedWalk`): its files, again. */
  async remembered(start: string, key: string): Promise<RememberedWalk | null> {
    const walk = await this.unchangedWalk(start, key);
    if (!walk) return null;
    const absolute = (key: string) => this.keys.absolute(key);
    return { files: walk.files.map(absolute), links: walk.links.map(([a, r]) => [absolute(a), absolute(r)]) };
  }

  /**
   * A walk of the previous run whose directories are all unchanged. Only if every file is
   * under `start`: a walk row naming anything else (a FIFO, /etc/...) was not written by a
   * walk of this start, and is not used.
   */
  async unchangedWalk(start: string, key: string): Promise<CachedWalk | null> {
    const id = walkId(this.keys.key(start), key);
    const walk = this.old?.walks.get(id);
    if (!walk) return null;
    if (!this.allUnder(walk, start)) {
      this.note(`scan cache walk of ${start} not used: it lists a file outside it`);
      return null;
    }
    const dirs = walk.dirs;
    if (!(await this.turns.every(dirs.length, (i) => this.dirUnchanged(dirs[i][0], dirs[i][1])))) return null;
    this.next.set(id, walk);
    return walk;
  }

  /** Whether every file key of `walk` is of a file under `start`, told on the keys as they are (no path built). */
  private allUnder(walk: CachedWalk, start: string): boolean {
    const prefix = withTrailingSep(start);
    // A key relative to the base is under `start` if it starts with the key of `start` (the
    // start under the base), or always (the base under the start), or never.
    const startKey = this.keys.key(prefix);
    const relativeUnder =
      startKey !== prefix ? (key: string) => key.startsWith(startKey) : this.keys.prefix.startsWith(prefix) ? () => true : () => false;
    // Most walks start at or under the base, and hold only plain relative keys (told when read).
    if (walk.plainFiles) {
      if (startKey === "") return true;
      // Told on the cache file's bytes when read from one: no key made.
      if (startKey !== prefix && walk.keysStartWith) return walk.keysStartWith(startKey);
      return walk.files.every(relativeUnder);
    }
    for (const key of walk.files) {
      if (!(path.isAbsolute(key) ? key.startsWith(prefix) : relativeUnder(key))) return false;
      if (key.includes("..") && key.split(path.sep).includes("..")) return false;
    }
    return true;
  }

  /** A walk that listed: remembered for the next run. */
  listed(start: string, key: string, { files, dirs, links }: WalkRecord): void {
    const keys = this.keys;
    let fileKeys: string[] | undefined;
    this.next.set(walkId(keys.key(start), key), {
      // Keyed when the cache is written: not a second string per file of the tree meanwhile.
      get files() {
        fileKeys ??= files.map((f) => keys.key(f)).sort();
        return fileKeys;
      },
      eachFile(visit) {
        if (fileKeys) for (const key of fileKeys) visit(key);
        else for (const file of files) visit(keys.key(file));
      },
      dirs: [...dirs].map(([dir, stamp]) => [keys.key(dir), stamp]),
      links: links.map(([a, r]) => [keys.key(a), keys.key(r)]),
    });
    this.changed = true;
  }
}

/**
 * The walk filter of a replay: remembered walks whose folders are unchanged answer with no
 * files (a replay needs none) but their count; any other walk ends the probe: it throws,
 * `missed` set (the tree, or what is scanned, changed).
 */
export class Probe implements WalkFilter {
  readonly walks: CachedWalk[] = [];
  missed = false;

  constructor(private readonly cached: CachedWalks) {}

  async remembered(start: string, key: string): Promise<RememberedWalk> {
    const walk = await this.cached.unchangedWalk(start, key);
    if (!walk) this.miss();
    this.walks.push(walk);
    return { files: [], links: [], reached: walk.fileCount ?? walk.files.length };
  }

  listed(): void {
    this.miss();
  }

  private miss(): never {
    this.missed = true;
    throw new Error("a walk the scan cache does not remember");
  }
}
