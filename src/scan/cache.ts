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
import type { CacheEntry, FileStamp } from "./worker-task.js";

const FORMAT = "speky-ts-scan-cache";
const FORMAT_VERSION = 1;
/**
 * A file whose mtime or ctime is this close to (or after) the moment the scan that cached it
 * started may have changed again within the same timestamp tick: its content is checked.
 * Kernel timestamps lag the clock by up to a tick (a few ms); file systems that store whole
 * seconds (FAT, some network ones) get the wide window.
 */
const RACY_MS = 100;
const RACY_COARSE_MS = 2000;

function racyWindow(stamp: FileStamp): number {
  return stamp.mtimeMs % 1000 === 0 && stamp.ctimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
}
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
 * paths[i] (relative to the cache's base, or absolute), size[i], mtime[i], ctime[i]; the files
 * holding the marker have their hash and result under their index.
 */
interface Body {
  paths: string;
  size: number[];
  mtime: number[];
  ctime: number[];
  found: [index: number, hash: string, result: FileResult][];
}

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
    )
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
}

export interface CacheFile {
  started: number;
  /** Path key (PathKeys) → entry. */
  entries: Map<string, CacheEntry>;
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
    const found = new Map(parsed.found.map(([i, hash, result]) => [i, { hash, result }]));
    const entries = new Map<string, CacheEntry>();
    for (let i = 0; i < paths.length; i++) {
      const f = found.get(i);
      entries.set(paths[i], { size: parsed.size[i], mtimeMs: parsed.mtime[i], ctimeMs: parsed.ctime[i], hash: f?.hash ?? null, result: f?.result ?? null });
    }
    return { started: header.started, entries };
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

/** The body (see Body), written column by column. */
function writeBody(out: ChunkWriter, entries: Map<string, CacheEntry>): number {
  const rows = [...entries].filter(([key]) => !key.includes("\n")); // a file name with a newline: not cached
  out.write('{"paths":"');
  rows.forEach(([key], i) => out.write((i > 0 ? "\\n" : "") + JSON.stringify(key).slice(1, -1)));
  out.write('"');
  for (const [name, field] of [["size", "size"], ["mtime", "mtimeMs"], ["ctime", "ctimeMs"]] as const) {
    out.write(`,"${name}":[`);
    rows.forEach(([, e], i) => out.write((i > 0 ? "," : "") + JSON.stringify(e[field])));
    out.write("]");
  }
  out.write(',"found":[');
  let first = true;
  rows.forEach(([, e], i) => {
    if (!e.result || !e.hash) return;
    out.write((first ? "" : ",") + JSON.stringify([i, e.hash, e.result]));
    first = false;
  });
  out.write("]}");
  return rows.length;
}

/**
 * Writes atomically: a temporary file in the same directory, renamed over the old one once
 * whole. A writer killed before the rename leaves the old cache (and a temporary file that is
 * never read, removed after an hour).
 */
export function writeCacheFile(file: string, scope: string, started: number, entries: Map<string, CacheEntry>): void {
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
      const count = writeBody(body, entries);
      const trailer: Trailer = { entries: count, checksum: body.digest() };
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

export interface Lookup {
  entry: CacheEntry;
  /** The stamp was taken safely before the caching scan started: an equal stamp means unchanged. */
  trusted: boolean;
}

// speky:speky-ts#SCAN-CACHE
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

export class ScanCache {
  readonly file: string;
  private readonly scope: string;
  private readonly keys: PathKeys;
  private readonly started = Date.now();
  private readonly old: CacheFile | null;
  private readonly next = new Map<string, CacheEntry>();
  private changed = false;
  private hits = 0;
  private misses = 0;

  constructor(private readonly options: ScanCacheOptions) {
    this.scope = createHash("sha256").update(JSON.stringify(options.scope)).digest("hex");
    this.file = path.join(options.dir ?? cacheDir(), `scan-${this.scope.slice(0, 24)}.json`);
    this.keys = new PathKeys(options.base);
    this.old = readCacheFile(this.file, this.scope);
    if (!this.old) this.changed = true;
    else if (options.merge) for (const [p, e] of this.old.entries) this.next.set(p, e);
  }

  /**
   * The cached entry of a file, if any, and whether its stamp can be trusted: a file changed
   * again within the timestamp tick of the caching scan's read would have an equal stamp.
   */
  lookup(absPath: string): Lookup | null {
    const old = this.old;
    const entry = old?.entries.get(this.keys.key(absPath));
    if (!old || !entry) return null;
    return { entry, trusted: Math.max(entry.mtimeMs, entry.ctimeMs) < old.started - racyWindow(entry) };
  }

  /** The entry of a file visited by this run (`hit`: unchanged since the cached run). */
  record(absPath: string, entry: CacheEntry, hit: boolean): void {
    this.next.set(this.keys.key(absPath), entry);
    if (hit) this.hits++;
    else {
      this.misses++;
      this.changed = true;
    }
  }

  /** Writes the cache if this run changed it; a cache that can't be written is no error. */
  save(): void {
    const dropped = !this.options.merge && this.old !== null && this.old.entries.size !== this.next.size;
    lastRun = { file: this.file, hits: this.hits, misses: this.misses, written: false };
    if (!this.changed && !dropped) return;
    try {
      writeCacheFile(this.file, this.scope, this.started, this.next);
      lastRun.written = true;
    } catch {
      // read-only or full disk: the next run scans cold
    }
  }
}
