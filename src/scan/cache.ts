// The persistent scan cache: per scanned root (and pattern set), the stamp (size, mtime, ctime)
// and content hash of every file seen → what the scan found in it. A warm run stats the files
// and reads only those whose stamp changed.
//
// Where: $SPEKY_CACHE_DIR, else $XDG_CACHE_HOME/speky-ts, else ~/.cache/speky-ts; never in the
// scanned tree. Keyed by the speky-ts version, the grammar set and the scanner's own code, so
// an upgrade or a grammar edit invalidates it. Written to a temporary file then renamed (a
// crash mid-write leaves the previous cache or none) and checked on read (a checksum over the
// whole body): a cache that doesn't verify is ignored, never trusted.
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../version.js";
import type { FileResult } from "./file.js";
import { GRAMMARS_DIR } from "./languages.js";
import type { DirStamp, WalkCache } from "./walk.js";
import type { CacheEntry, FileStamp } from "./worker-task.js";

const FORMAT = "speky-ts-scan-cache";
const FORMAT_VERSION = 3;
/**
 * A file whose mtime or ctime is this close to (or after) the moment the scan that cached it
 * started may have changed again within the same timestamp tick: its content is checked.
 * Kernel timestamps lag the clock by up to a tick (a few ms); file systems that store whole
 * seconds (FAT, some network ones) get the wide window.
 */
const RACY_MS = 100;
const RACY_COARSE_MS = 2000;

/** Temporary files of killed writers are removed after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPEKY_CACHE_DIR) return path.resolve(env.SPEKY_CACHE_DIR);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), ".cache");
  return path.join(base, "speky-ts");
}

function filesOf(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && keep(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve(name));
    for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
      const file = path.join(d, "package.json");
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? "?";
      }
    }
  } catch {
    // the key then only misses this part
  }
  return "?";
}

let key: string | undefined;

/** speky-ts version + tree-sitter versions + grammars/ contents + the scanner's code. */
export function cacheKey(): string {
  if (key) return key;
  const hash = createHash("sha256");
  hash.update(`${FORMAT} ${FORMAT_VERSION} speky-ts ${VERSION}\0`);
  hash.update(`web-tree-sitter ${packageVersion("web-tree-sitter")} tree-sitter-wasms ${packageVersion("tree-sitter-wasms")}\0`);
  const codeDir = path.dirname(fileURLToPath(import.meta.url));
  const sources: [string, string[]][] = [
    [GRAMMARS_DIR, filesOf(GRAMMARS_DIR, () => true)],
    [codeDir, filesOf(codeDir, (n) => /\.(?:js|ts)$/.test(n))],
  ];
  for (const [dir, names] of sources) {
    for (const name of names) {
      hash.update(`${name}\0`);
      hash.update(readFileSync(path.join(dir, name)));
      hash.update("\0");
    }
  }
  key = hash.digest("hex");
  return key;
}

/**
 * The body, by columns (one JSON parse of a few long arrays, no object per file): file i is
 * paths[i] (relative to the cache's base, or absolute), size[i], mtime[i], and ctime as
 * mtime[i] + ctime[i] (mostly 0: shorter); the files holding the marker have their hash and
 * result under their index.
 */
interface Body {
  paths: string;
  size: number[];
  mtime: number[];
  ctime: number[];
  found: [index: number, hash: string, result: FileResult][];
  /** Remembered walks: start and rule, the files found (as indexes of paths), the directories listed. */
  walks: WalkRow[];
}

type WalkRow = [start: string, rule: string, files: number[], dirs: string, dirMtime: number[], dirCtime: number[]];

/** A walk as kept between runs: paths as keys (PathKeys). */
interface CachedWalk {
  files: string[];
  dirs: [key: string, stamp: DirStamp][];
}

const walkId = (startKey: string, rule: string) => `${startKey}\0${rule}`;

/** The first line. */
interface Header {
  format: string;
  version: number;
  key: string;
  scope: string;
  /** Date.now() when the scan that wrote the cache started. */
  started: number;
}

/** The last line, written after the body: a file cut anywhere lacks it or fails its checksum. */
interface Trailer {
  entries: number;
  /** sha256 of the body line, base64. */
  checksum: string;
}

function isResult(x: unknown): x is FileResult {
  if (typeof x !== "object" || x === null) return false;
  const r = x as FileResult;
  return (typeof r.language === "string" || r.language === null) && Array.isArray(r.tags) && Array.isArray(r.diagnostics);
}

const numbers = (x: unknown, length: number): x is number[] =>
  Array.isArray(x) && x.length === length && x.every((n) => typeof n === "number");

function isWalkRow(x: unknown, entries: number): x is WalkRow {
  if (!Array.isArray(x) || x.length !== 6) return false;
  const [start, rule, files, dirs, mtime, ctime] = x as unknown[];
  if (typeof start !== "string" || typeof rule !== "string" || typeof dirs !== "string") return false;
  const count = dirs === "" ? 0 : dirs.split("\n").length;
  return Array.isArray(files) && files.every((i) => Number.isInteger(i) && i >= 0 && i < entries) && numbers(mtime, count) && numbers(ctime, count);
}

function isBody(x: unknown, entries: number): x is Body {
  if (typeof x !== "object" || x === null) return false;
  const b = x as Body;
  return (
    typeof b.paths === "string" &&
    numbers(b.size, entries) &&
    numbers(b.mtime, entries) &&
    numbers(b.ctime, entries) &&
    Array.isArray(b.found) &&
    b.found.every(
      (f) => Array.isArray(f) && Number.isInteger(f[0]) && f[0] >= 0 && f[0] < entries && typeof f[1] === "string" && isResult(f[2]),
    ) &&
    Array.isArray(b.walks) &&
    b.walks.every((w) => isWalkRow(w, entries))
  );
}

const checksum = (body: string) => createHash("sha256").update(body).digest("base64");

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

/** A cache file as read: its columns, and an index by path key. */
export class CacheFile {
  private index: Map<string, number> | undefined;
  private readonly found: Map<number, [hash: string, result: FileResult]>;
  readonly walks = new Map<string, CachedWalk>();

  constructor(
    readonly started: number,
    readonly paths: string[],
    private readonly body: Body,
  ) {
    this.found = new Map(body.found.map(([i, hash, result]) => [i, [hash, result]]));
    for (const [start, rule, files, dirs, mtime, ctime] of body.walks) {
      const dirKeys = dirs === "" ? [] : dirs.split("\n");
      this.walks.set(walkId(start, rule), {
        files: files.map((i) => paths[i]),
        dirs: dirKeys.map((k, i) => [k, { mtimeMs: mtime[i], ctimeMs: ctime[i] }]),
      });
    }
  }

  /** Path key → row, built on first need (a warm scan visits the rows in order: see `row`). */
  get rows(): Map<string, number> {
    this.index ??= new Map(this.paths.map((p, i) => [p, i]));
    return this.index;
  }

  /** The row of `key`, tried first at `guess` (the row after the previous one looked up). */
  row(key: string, guess: number): number | undefined {
    return this.paths[guess] === key ? guess : this.rows.get(key);
  }

  stamp(row: number): FileStamp {
    const mtimeMs = this.body.mtime[row];
    return { size: this.body.size[row], mtimeMs, ctimeMs: mtimeMs + this.body.ctime[row] };
  }

  hash(row: number): string | null {
    return this.found.get(row)?.[0] ?? null;
  }

  result(row: number): FileResult | null {
    return this.found.get(row)?.[1] ?? null;
  }

  entry(row: number): CacheEntry {
    return { ...this.stamp(row), hash: this.hash(row), result: this.result(row) };
  }

  /** Every entry by path key (tests and tools; a scan reads rows as needed). */
  entries(): Map<string, CacheEntry> {
    return new Map(this.paths.map((p, i) => [p, this.entry(i)]));
  }
}

/** The cache at `file`, or null when it is missing, foreign, stale, truncated or corrupt. */
export function readCacheFile(file: string, scope: string): CacheFile | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const first = text.indexOf("\n");
  const last = text.lastIndexOf("\n", text.length - 2);
  if (first < 0 || last <= first || !text.endsWith("\n")) return null;
  try {
    const header = JSON.parse(text.slice(0, first)) as Header;
    if (header.format !== FORMAT || header.version !== FORMAT_VERSION) return null;
    if (header.key !== cacheKey() || header.scope !== scope || typeof header.started !== "number") return null;
    const trailer = JSON.parse(text.slice(last + 1, -1)) as Trailer;
    const body = text.slice(first + 1, last);
    if (checksum(body) !== trailer.checksum) return null;
    const parsed = JSON.parse(body) as unknown;
    if (!Number.isInteger(trailer.entries) || !isBody(parsed, trailer.entries)) return null;
    const paths = trailer.entries === 0 ? [] : parsed.paths.split("\n");
    if (paths.length !== trailer.entries) return null;
    return new CacheFile(header.started, paths, parsed);
  } catch {
    return null;
  }
}

/** Text to a file descriptor in chunks, hashed on the way: no whole copy of the cache in memory. */
class ChunkWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly hash = createHash("sha256");

  constructor(private readonly fd: number) {}

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= 1 << 16) this.flush();
  }

  flush(): void {
    const chunk = this.parts.join("");
    this.parts.length = 0;
    this.length = 0;
    this.hash.update(chunk);
    writeSync(this.fd, chunk);
  }

  digest(): string {
    this.flush();
    return this.hash.digest("base64");
  }
}

/** What a cache file holds for a file: an entry, or a row of the cache file this run read. */
type Kept = CacheEntry | number;

/** The body (see Body), written column by column. */
function writeBody(out: ChunkWriter, rows: [key: string, entry: CacheEntry][], walks: Map<string, CachedWalk>): void {
  out.write('{"paths":"');
  rows.forEach(([key], i) => out.write((i > 0 ? "\\n" : "") + JSON.stringify(key).slice(1, -1)));
  out.write('"');
  const columns = {
    size: (e: CacheEntry) => e.size,
    mtime: (e: CacheEntry) => e.mtimeMs,
    // Exact: two close doubles subtract exactly, and add back exactly.
    ctime: (e: CacheEntry) => e.ctimeMs - e.mtimeMs,
  };
  for (const [name, value] of Object.entries(columns)) {
    out.write(`,"${name}":[`);
    rows.forEach(([, e], i) => out.write((i > 0 ? "," : "") + JSON.stringify(value(e))));
    out.write("]");
  }
  out.write(',"found":[');
  let first = true;
  rows.forEach(([, e], i) => {
    if (!e.result || !e.hash) return;
    out.write((first ? "" : ",") + JSON.stringify([i, e.hash, e.result]));
    first = false;
  });
  out.write('],"walks":[');
  const index = new Map(rows.map(([key], i) => [key, i]));
  first = true;
  for (const [id, walk] of walks) {
    const files = walk.files.map((key) => index.get(key));
    // A walk whose files aren't all rows, or with a newline in a name, is walked again next time.
    if (files.some((i) => i === undefined) || walk.dirs.some(([key]) => key.includes("\n"))) continue;
    const [start, rule] = id.split("\0");
    const dirs = walk.dirs;
    const row: WalkRow = [start, rule, files as number[], dirs.map(([k]) => k).join("\n"), dirs.map(([, d]) => d.mtimeMs), dirs.map(([, d]) => d.ctimeMs)];
    out.write((first ? "" : ",") + JSON.stringify(row));
    first = false;
  }
  out.write("]}");
}

/**
 * Writes atomically: a temporary file in the same directory, renamed over the old one once
 * whole. A writer killed before the rename leaves the old cache (and a temporary file that is
 * never read, removed after an hour).
 */
export function writeCacheFile(
  file: string,
  scope: string,
  started: number,
  entries: Map<string, CacheEntry>,
  walks: Map<string, CachedWalk> = new Map(),
): void {
  const rows = [...entries].filter(([key]) => !key.includes("\n")); // a file name with a newline: not cached
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(dir);
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temp, "w");
  try {
    try {
      const header: Header = { format: FORMAT, version: FORMAT_VERSION, key: cacheKey(), scope, started };
      writeSync(fd, `${JSON.stringify(header)}\n`);
      const body = new ChunkWriter(fd);
      writeBody(body, rows, walks);
      const trailer: Trailer = { entries: rows.length, checksum: body.digest() };
      writeSync(fd, `\n${JSON.stringify(trailer)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw err;
  }
}

function removeStaleTemps(dir: string): void {
  const now = Date.now();
  for (const name of filesOf(dir, (n) => n.endsWith(".tmp"))) {
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > STALE_TEMP_MS) unlinkSync(file);
    } catch {
      // another process's
    }
  }
}

/** Whether the file still has the cached stamp (size, mtime, ctime): then its content is the cached one. */
export function isUnchanged(absPath: string, cached: FileStamp): boolean {
  const st = statSync(absPath, { throwIfNoEntry: false });
  return st !== undefined && st.isFile() && st.size === cached.size && st.mtimeMs === cached.mtimeMs && st.ctimeMs === cached.ctimeMs;
}

export interface ScanCacheOptions {
  /** What was scanned (roots and patterns): one cache file per scope. */
  scope: unknown;
  /** Cached paths are stored relative to this directory. */
  base: string;
  /** Keep the entries of files this run doesn't visit (a scan restricted to some files). */
  merge: boolean;
  dir?: string;
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

export class ScanCache implements WalkCache {
  readonly file: string;
  private readonly scope: string;
  private readonly keys: PathKeys;
  private readonly started = Date.now();
  private readonly old: CacheFile | null;
  /** Path key → what the next cache file holds for it. */
  private readonly next = new Map<string, Kept>();
  private readonly nextWalks = new Map<string, CachedWalk>();
  /** Directories checked by this run: unchanged or not. */
  private readonly dirsChecked = new Map<string, boolean>();
  private changed = false;
  /** Where the next file looked up is likely to be: files come in the order they were cached. */
  private cursor = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly options: ScanCacheOptions) {
    this.scope = createHash("sha256").update(JSON.stringify(options.scope)).digest("hex");
    this.file = path.join(options.dir ?? cacheDir(), `scan-${this.scope.slice(0, 24)}.json`);
    this.keys = new PathKeys(options.base);
    this.old = readCacheFile(this.file, this.scope);
    if (!this.old) this.changed = true;
    else if (options.merge) {
      this.old.paths.forEach((p, row) => this.next.set(p, row));
      for (const [id, w] of this.old.walks) this.nextWalks.set(id, w);
    }
  }

  /** A stamp taken safely before the caching scan started: an equal stamp then means unchanged. */
  private trusted(stamp: DirStamp | FileStamp): boolean {
    const window = stamp.mtimeMs % 1000 === 0 && stamp.ctimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
    return Math.max(stamp.mtimeMs, stamp.ctimeMs) < this.old!.started - window;
  }

  private dirUnchanged(key: string, stamp: DirStamp): boolean {
    let same = this.dirsChecked.get(key);
    if (same === undefined) {
      const st = statSync(this.keys.absolute(key), { throwIfNoEntry: false });
      same = st !== undefined && st.isDirectory() && st.mtimeMs === stamp.mtimeMs && st.ctimeMs === stamp.ctimeMs && this.trusted(stamp);
      this.dirsChecked.set(key, same);
    }
    return same;
  }

  /** A walk of the previous run whose directories are all unchanged: its files, again. */
  lookup(start: string, rule: string): string[] | null {
    const id = walkId(this.keys.key(start), rule);
    const walk = this.old?.walks.get(id);
    if (!walk || !walk.dirs.every(([key, stamp]) => this.dirUnchanged(key, stamp))) return null;
    this.nextWalks.set(id, walk);
    return walk.files.map((key) => this.keys.absolute(key));
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
    if (this.trusted(stamp) && isUnchanged(absPath, stamp)) {
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
    const old = this.old;
    const dropped = !this.options.merge && old !== null && (old.paths.length !== this.next.size || old.walks.size !== this.nextWalks.size);
    lastRun = { file: this.file, hits: this.hits, misses: this.misses, written: false };
    if (!this.changed && !dropped) return;
    const entries = new Map<string, CacheEntry>();
    for (const [key, kept] of this.next) entries.set(key, typeof kept === "number" ? old!.entry(kept) : kept);
    try {
      writeCacheFile(this.file, this.scope, this.started, entries, this.nextWalks);
      lastRun.written = true;
    } catch {
      // read-only or full disk: the next run scans cold
    }
  }
}
