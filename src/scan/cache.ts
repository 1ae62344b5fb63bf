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
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
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
 */
const RACY_MS = 2000;
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

type Row = [rel: string, size: number, mtimeMs: number, ctimeMs: number, hash: string | null, result: FileResult | null];

interface Header {
  format: string;
  version: number;
  key: string;
  scope: string;
  /** Date.now() when the scan that wrote the cache started. */
  started: number;
  entries: number;
  /** sha256 of the body line, base64. */
  checksum: string;
}

function isResult(x: unknown): x is FileResult {
  if (typeof x !== "object" || x === null) return false;
  const r = x as FileResult;
  return (typeof r.language === "string" || r.language === null) && Array.isArray(r.tags) && Array.isArray(r.diagnostics);
}

function isRow(x: unknown): x is Row {
  if (!Array.isArray(x) || x.length !== 6) return false;
  const [rel, size, mtime, ctime, hash, result] = x as unknown[];
  return (
    typeof rel === "string" &&
    typeof size === "number" &&
    typeof mtime === "number" &&
    typeof ctime === "number" &&
    (typeof hash === "string" || hash === null) &&
    (result === null || isResult(result))
  );
}

const checksum = (body: string) => createHash("sha256").update(body).digest("base64");

export interface CacheFile {
  started: number;
  /** Absolute path → entry. */
  entries: Map<string, CacheEntry>;
}

/** The cache at `file`, or null when it is missing, foreign, stale, truncated or corrupt. */
export function readCacheFile(file: string, scope: string, base: string): CacheFile | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const nl = text.indexOf("\n");
  if (nl < 0) return null;
  try {
    const header = JSON.parse(text.slice(0, nl)) as Header;
    if (header.format !== FORMAT || header.version !== FORMAT_VERSION) return null;
    if (header.key !== cacheKey() || header.scope !== scope || typeof header.started !== "number") return null;
    const body = text.slice(nl + 1);
    if (checksum(body) !== header.checksum) return null;
    const rows = JSON.parse(body) as unknown;
    if (!Array.isArray(rows) || rows.length !== header.entries) return null;
    const entries = new Map<string, CacheEntry>();
    for (const row of rows) {
      if (!isRow(row)) return null;
      const [rel, size, mtimeMs, ctimeMs, hash, result] = row;
      entries.set(path.resolve(base, rel), { size, mtimeMs, ctimeMs, hash, result });
    }
    return { started: header.started, entries };
  } catch {
    return null;
  }
}

/** Writes atomically: a temporary file in the same directory, then a rename over the old one. */
export function writeCacheFile(file: string, scope: string, base: string, started: number, entries: Map<string, CacheEntry>): void {
  const rows: Row[] = [];
  for (const [absPath, e] of entries) rows.push([path.relative(base, absPath), e.size, e.mtimeMs, e.ctimeMs, e.hash, e.result]);
  const body = JSON.stringify(rows);
  const header: Header = { format: FORMAT, version: FORMAT_VERSION, key: cacheKey(), scope, started, entries: rows.length, checksum: checksum(body) };
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(dir);
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(header)}\n${body}`);
    renameSync(temp, file);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // never written
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

export type Lookup = { hit: CacheEntry } | { miss: CacheEntry | null };

const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

export interface ScanCacheOptions {
  /** What was scanned (roots and patterns): one cache file per scope. */
  scope: unknown;
  /** Cached paths are stored relative to this directory. */
  base: string;
  /** Keep the entries of files this run doesn't visit (a scan restricted to some files). */
  merge: boolean;
  dir?: string;
}

export class ScanCache {
  readonly file: string;
  private readonly scope: string;
  private readonly started = Date.now();
  private readonly old: CacheFile | null;
  private readonly next = new Map<string, CacheEntry>();
  private changed = false;

  constructor(private readonly options: ScanCacheOptions) {
    this.scope = createHash("sha256").update(JSON.stringify(options.scope)).digest("hex");
    this.file = path.join(options.dir ?? cacheDir(), `scan-${this.scope.slice(0, 24)}.json`);
    this.old = readCacheFile(this.file, this.scope, options.base);
    if (!this.old) this.changed = true;
    else if (options.merge) for (const [p, e] of this.old.entries) this.next.set(p, e);
  }

  // speky:speky-ts#SCAN-CACHE
  /**
   * A hit when the file's stamp is the cached one and was taken safely before the caching
   * scan started; otherwise a miss, with the cached entry (if any) whose result a file of
   * the same content hash reuses.
   */
  lookup(absPath: string): Lookup {
    const entry = this.old?.entries.get(absPath);
    if (!entry) return { miss: null };
    if (Math.max(entry.mtimeMs, entry.ctimeMs) >= this.old!.started - RACY_MS) return { miss: entry };
    const st = statSync(absPath, { throwIfNoEntry: false });
    if (!st || !st.isFile() || !sameStamp(entry, st)) return { miss: entry };
    return { hit: entry };
  }

  /** The entry of a file visited by this run (`hit`: unchanged since the cached run). */
  record(absPath: string, entry: CacheEntry, hit: boolean): void {
    this.next.set(absPath, entry);
    if (!hit) this.changed = true;
  }

  /** Writes the cache if this run changed it; a cache that can't be written is no error. */
  save(): void {
    const dropped = !this.options.merge && this.old !== null && this.old.entries.size !== this.next.size;
    if (!this.changed && !dropped) return;
    try {
      writeCacheFile(this.file, this.scope, this.options.base, this.started, this.next);
    } catch {
      // read-only or full disk: the next run scans cold
    }
  }
}
