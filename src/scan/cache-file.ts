// The scan cache's file format and its reading and writing (the policy, what to trust and
// when, is cache.ts).
//
// A cache file is three lines: a header (format, version, build key, scope, start time), the
// body (one JSON object of columns, see Body) and a trailer (row count and an HMAC-SHA256 of
// header and body made with the user's key, cache-trust.ts). Written to a temporary file then
// renamed (a crash mid-write leaves the previous cache or none). Read as untrusted input: a
// regular file (never a link, FIFO or device), ours alone, size-capped, signature checked,
// then every field validated before use; any failure discards the whole file, with a reason.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import { endianness } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { VERSION } from "../version.js";
import { cacheSigningKey, notOurs } from "./cache-trust.js";
import type { RawDiagnostic, RawTag } from "./engine.js";
import type { FileResult } from "./file.js";
import { GRAMMARS_DIR } from "./languages.js";
import type { DirStamp } from "./walk.js";
import type { CacheEntry, FileStamp } from "./worker-task.js";

const FORMAT = "speky-ts-scan-cache";
const FORMAT_VERSION = 5;

/**
 * A cache file larger than this is neither read nor written: about 300,000 files' worth (the
 * bench's 25,000 files take 3 to 5 MB), and parsing it stays within the scan's memory budget.
 */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Temporary files of killed writers are removed after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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

/** Written by `npm run build` beside the built scanner (build-key.ts): the key, computed once per build. */
const BUILD_KEY_FILE = fileURLToPath(new URL("./build-key.json", import.meta.url));

/** The files the key covers: grammars/ and the scanner's own code. */
function keySources(): [string, string[]][] {
  const codeDir = path.dirname(fileURLToPath(import.meta.url));
  return [
    [GRAMMARS_DIR, filesOf(GRAMMARS_DIR, () => true)],
    // The shipped grammars, by the sha256 of each (scripts/grammars.mjs), not by package version.
    [path.join(GRAMMARS_DIR, "wasm"), filesOf(path.join(GRAMMARS_DIR, "wasm"), (n) => n === "SOURCES.json")],
    [codeDir, filesOf(codeDir, (n) => /\.(?:js|ts)$/.test(n))],
  ];
}

/** Names, sizes and mtimes of the key's files: a stat each, no read. */
export function keyFingerprint(): string {
  const hash = createHash("sha256");
  for (const [dir, names] of keySources()) {
    for (const name of names) {
      const st = statSync(path.join(dir, name), { throwIfNoEntry: false });
      hash.update(`${dir}/${name}\0${st?.size}\0${st?.mtimeMs}\0`);
    }
  }
  return hash.digest("hex");
}

/**
 * The build's key: the one `npm run build` wrote in BUILD_KEY_FILE while the files it covers
 * keep their sizes and mtimes (a warm scan then hashes nothing), else computed.
 */
export function cacheKey(): string {
  if (key) return key;
  try {
    const built = JSON.parse(readFileSync(BUILD_KEY_FILE, "utf8")) as { key?: unknown; fingerprint?: unknown };
    if (typeof built.key === "string" && /^[0-9a-f]{64}$/.test(built.key) && built.fingerprint === keyFingerprint()) {
      key = built.key;
      return key;
    }
  } catch {
    // not built, or running from source: computed below
  }
  key = computeCacheKey();
  return key;
}

/** speky-ts version + tree-sitter versions + grammars/ contents + the scanner's code. */
export function computeCacheKey(): string {
  const hash = createHash("sha256");
  hash.update(`${FORMAT} ${FORMAT_VERSION} speky-ts ${VERSION}\0`);
  hash.update(`web-tree-sitter ${packageVersion("web-tree-sitter")}\0`);
  for (const [dir, names] of keySources()) {
    for (const name of names) {
      hash.update(`${name}\0`);
      hash.update(readFileSync(path.join(dir, name)));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}

/**
 * The body, by columns (one JSON parse of a few long strings, no object per file): file i is
 * line i of `paths` (relative to the cache's base, or absolute) and numbers 3i to 3i+2 of
 * `stamps` (size, mtime, ctime); the files holding the marker have their hash and result
 * under their index. Numbers are kept as the bytes of a Float64Array in base64: decoding them
 * costs nothing next to parsing 75,000 JSON numbers (a warm scan of 25,000 files).
 */
interface Body {
  paths: string;
  stamps: string;
  found: [index: number, hash: string, result: FileResult][];
  /** Remembered walks: start and rule, the files found (as rows), the directories listed. */
  walks: WalkRow[];
}

/**
 * `files`: runs of rows, [first, count, first, count, ...] (a walk's files are mostly one run:
 * rows are in path order); `dirs`: one key per line; `dirStamps`: mtime and ctime per dir, as
 * `stamps`.
 */
type WalkRow = [start: string, rule: string, files: number[], dirs: string, dirStamps: string];

/** Numbers as base64 of their Float64Array bytes, in this machine's byte order (the header says which). */
function packNumbers(values: number[]): string {
  return Buffer.from(new Float64Array(values).buffer).toString("base64");
}

/** The numbers of packNumbers, or null unless there are `count` of them. */
function unpackNumbers(text: string, count: number): Float64Array | null {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length !== count * 8) return null;
  // A copy: Buffer.from may hand out a slice of a pool, not aligned for a Float64Array.
  const numbers = new Float64Array(count);
  new Uint8Array(numbers.buffer).set(bytes);
  return numbers;
}

/** Rows as runs (see WalkRow), from sorted rows. */
function toRuns(rows: number[]): number[] {
  const runs: number[] = [];
  for (const row of rows) {
    const last = runs.length - 2;
    if (last >= 0 && runs[last] + runs[last + 1] === row) runs[last + 1]++;
    else runs.push(row, 1);
  }
  return runs;
}

/** A walk as kept between runs: paths as keys (see ScanCache). */
export interface CachedWalk {
  files: string[];
  dirs: [key: string, stamp: DirStamp][];
  /** Its files as runs of rows of the cache file it was read from (WalkRow). */
  runs?: number[];
}

export const walkId = (startKey: string, rule: string) => `${startKey}\0${rule}`;

/** The first line. */
interface Header {
  format: string;
  version: number;
  /** os.endianness() of the writer: the packed numbers are in its byte order. */
  endian: string;
  key: string;
  scope: string;
  /** Date.now() when the scan that wrote the cache started. */
  started: number;
}

/** The last line, written after the body: a file cut anywhere lacks it or fails its signature. */
interface Trailer {
  entries: number;
  /** HMAC-SHA256 of the header line, a newline and the body line, with the user's key; base64. */
  mac: string;
}

// ---- validation: a reason, or null when the value is what the type says ------------------

type Check = (x: unknown) => string | null;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isTime = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const orNull = (ok: (x: unknown) => boolean) => (x: unknown) => x === null || ok(x);
const isString = (x: unknown): x is string => typeof x === "string";

/** Fields of an object, each with its test: the first failing one is named. */
function fields(what: string, tests: Record<string, (x: unknown) => boolean>): Check {
  return (x) => {
    if (!isObject(x)) return `${what} is not an object`;
    for (const [name, ok] of Object.entries(tests)) if (!ok(x[name])) return `${what}.${name} is invalid`;
    return null;
  };
}

const isSpan = (x: unknown) => Array.isArray(x) && x.length === 2 && isCount(x[0]) && isCount(x[1]);
const optional = (ok: (x: unknown) => boolean) => (x: unknown) => x === undefined || ok(x);

const checkTag = fields("tag", {
  line: isCount,
  column: isCount,
  tag_line: isCount,
  tag_column: isCount,
  project: isString,
  id: isString,
  symbol: orNull(isString),
  kind: orNull(isString),
  is_test: (x) => typeof x === "boolean",
  reference: (x) => typeof x === "boolean",
  warning: orNull(isString),
  span: optional(isSpan),
} satisfies Record<keyof RawTag, (x: unknown) => boolean>);

const checkDiagnostic = fields("diagnostic", {
  line: isCount,
  column: isCount,
  message: isString,
} satisfies Record<keyof RawDiagnostic, (x: unknown) => boolean>);

function checkResult(x: unknown): string | null {
  if (!isObject(x)) return "result is not an object";
  if (!orNull(isString)(x.language)) return "result.language is invalid";
  if (!Array.isArray(x.tags) || !Array.isArray(x.diagnostics)) return "result lists are invalid";
  for (const tag of x.tags) {
    const why = checkTag(tag);
    if (why) return why;
  }
  for (const d of x.diagnostics) {
    const why = checkDiagnostic(d);
    if (why) return why;
  }
  if (x.outline !== undefined) {
    const o = x.outline;
    if (!isObject(o) || !isCount(o.lines) || !Array.isArray(o.spans) || !o.spans.every(isSpan)) return "result.outline is invalid";
  }
  return null;
}

/** The walk's dirs and their stamps, or why the row is invalid. */
function checkWalkRow(x: unknown, entries: number): string | { dirKeys: string[]; dirStamps: Float64Array } {
  if (!Array.isArray(x) || x.length !== 5) return "walk row is not a 5-tuple";
  const [start, rule, files, dirs, packed] = x as unknown[];
  if (!isString(start) || !isString(rule) || !isString(dirs) || !isString(packed)) return "walk row names are invalid";
  if (!Array.isArray(files) || files.length % 2 !== 0 || !files.every(isCount)) return "walk row files are invalid";
  for (let i = 0; i < files.length; i += 2) if (files[i] + files[i + 1] > entries) return "walk row files are invalid";
  const dirKeys = dirs === "" ? [] : dirs.split("\n");
  const dirStamps = unpackNumbers(packed, 2 * dirKeys.length);
  if (!dirStamps) return "walk row stamps are invalid";
  return { dirKeys, dirStamps };
}

/** Why the body is not a valid Body of `entries` rows, or null. */
function checkBody(x: unknown, entries: number): string | null {
  if (!isObject(x)) return "body is not an object";
  if (!isString(x.paths)) return "paths are invalid";
  if (!isString(x.stamps)) return "stamps are invalid";
  if (!Array.isArray(x.found)) return "found list is invalid";
  const seen = new Set<number>();
  for (const f of x.found) {
    if (!Array.isArray(f) || f.length !== 3 || !isCount(f[0]) || f[0] >= entries || seen.has(f[0]) || !isString(f[1])) {
      return "found row is invalid";
    }
    seen.add(f[0]);
    const why = checkResult(f[2]);
    if (why) return why;
  }
  if (!Array.isArray(x.walks)) return "walk list is invalid";
  return null;
}

function checkHeader(x: unknown): string | null {
  if (!isObject(x)) return "header is not an object";
  if (x.format !== FORMAT || x.version !== FORMAT_VERSION) return "another format or version";
  if (x.endian !== endianness()) return "written on a machine of another byte order";
  if (!isString(x.scope) || !isString(x.key) || !isTime(x.started)) return "header fields are invalid";
  return null;
}

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
    readonly paths: string[],
    /** size, mtime and ctime of each row. */
    private readonly stamps: Float64Array,
    found: Body["found"],
    /** No path is absolute or has a `..` part (one test of the whole list, not one per path). */
    readonly plainRelative = false,
  ) {
    this.found = new Map(found.map(([i, hash, result]) => [i, [hash, { result }]]));
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
    return new Map(this.paths.map((p, i) => [p, this.entry(i)]));
  }
}

const sign = (key: Buffer) => createHmac("sha256", key);

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Why a cache file was not used (for --verbose); silent for a cache not written yet. */
export type CacheNote = (why: string) => void;

/**
 * The cache at `file`, or null when it is missing, refused (not a regular file of ours alone,
 * too large), foreign, stale, truncated, unsigned or invalid in any field; `note` hears why.
 */
// speky:speky-ts#CACHE-UNTRUSTED
export function readCacheFile(
  file: string,
  scope: string,
  note: CacheNote = () => {},
  /** Hears the paths (a JSON string literal, see StatJob) once the signature is checked, before the parse. */
  verified?: (pathsJson: string, entries: number) => void,
): CacheFile | null {
  const read = readRegularSync(file, { noFollow: true, maxBytes: MAX_CACHE_BYTES });
  if (isRefusal(read)) {
    if (read.code !== "ENOENT") note(`scan cache ${file} not used: ${read.kind ?? read.problem}`);
    return null;
  }
  const refuse = (why: string) => {
    note(`scan cache ${file} not used: ${why}`);
    return null;
  };
  const owner = notOurs(read.stat, "the file");
  if (owner) return refuse(owner);
  const signingKey = cacheSigningKey(path.dirname(file), false);
  if (typeof signingKey === "string") return refuse(signingKey);
  const text = read.bytes.toString("utf8");
  const first = text.indexOf("\n");
  const last = text.lastIndexOf("\n", text.length - 2);
  if (first < 0 || last <= first || !text.endsWith("\n")) return refuse("truncated");
  try {
    const headerLine = text.slice(0, first);
    const header = JSON.parse(headerLine) as unknown;
    const badHeader = checkHeader(header);
    if (badHeader) return refuse(badHeader);
    const h = header as Header;
    if (h.key !== cacheKey()) return refuse("written by another build of speky-ts");
    if (h.scope !== scope) return refuse("written for another scope");
    const trailer = JSON.parse(text.slice(last + 1, -1)) as unknown;
    if (!isObject(trailer) || !isCount(trailer.entries) || !isString(trailer.mac)) return refuse("trailer is invalid");
    const body = text.slice(first + 1, last);
    const mac = sign(signingKey).update(`${headerLine}\n`).update(body).digest("base64");
    if (!sameMac(mac, trailer.mac)) return refuse("its signature does not verify");
    // The body starts with the paths (writeBody): a string literal ends where `","stamps":"` starts.
    const pathsEnd = body.indexOf('","stamps":"');
    if (verified && body.startsWith('{"paths":"') && pathsEnd > 0) verified(body.slice(9, pathsEnd + 1), trailer.entries);
    const parsed = JSON.parse(body) as unknown;
    const badBody = checkBody(parsed, trailer.entries);
    if (badBody) return refuse(badBody);
    const b = parsed as Body;
    const paths = trailer.entries === 0 ? [] : b.paths.split("\n");
    if (paths.length !== trailer.entries || (trailer.entries === 0 && b.paths !== "")) return refuse("path count is wrong");
    if (b.paths.includes("\0") || b.paths.startsWith("\n") || b.paths.endsWith("\n") || b.paths.includes("\n\n"))
      return refuse("a path is invalid");
    // Stamps are only compared with fresh ones, and a time not before the caching run (NaN
    // included) is not trusted (cache.ts): any number is safe; their count is checked.
    const stamps = unpackNumbers(b.stamps, 3 * paths.length);
    if (!stamps) return refuse("stamps are invalid");
    const cached = new CacheFile(
      h.started,
      paths,
      stamps,
      b.found,
      path.sep === "/" && !/(?:^|\n)\/|(?:^|\n|\/)\.\.(?:\/|\n|$)/.test(b.paths),
    );
    for (const row of b.walks) {
      const walk = checkWalkRow(row, paths.length);
      if (typeof walk === "string") return refuse(walk);
      const [start, rule, runs] = row as WalkRow;
      const files: string[][] = [];
      for (let i = 0; i < runs.length; i += 2) files.push(paths.slice(runs[i], runs[i] + runs[i + 1]));
      cached.walks.set(walkId(start, rule), {
        runs,
        files: files.length === 1 ? files[0] : files.flat(),
        dirs: walk.dirKeys.map((k, i) => [k, { mtimeMs: walk.dirStamps[2 * i], ctimeMs: walk.dirStamps[2 * i + 1] }]),
      });
    }
    return cached;
  } catch (err) {
    return refuse(`not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Text to a file descriptor in chunks, signed on the way: no whole copy of the cache in memory. */
class ChunkWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private written = 0;

  constructor(
    private readonly fd: number,
    private readonly mac: ReturnType<typeof sign>,
  ) {}

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= 1 << 16) this.flush();
  }

  flush(): void {
    const chunk = this.parts.join("");
    this.parts.length = 0;
    this.length = 0;
    this.mac.update(chunk);
    this.written += writeSync(this.fd, chunk);
    if (this.written > MAX_CACHE_BYTES) throw new Error("the cache would exceed its size cap");
  }

  digest(): string {
    this.flush();
    return this.mac.digest("base64");
  }
}

/** The body (see Body), written column by column. */
function writeBody(out: ChunkWriter, rows: [key: string, entry: CacheEntry][], walks: Map<string, CachedWalk>): void {
  out.write('{"paths":"');
  for (const [i, [key]] of rows.entries()) out.write((i > 0 ? "\\n" : "") + JSON.stringify(key).slice(1, -1));
  out.write('","stamps":"');
  out.write(packNumbers(rows.flatMap(([, e]) => [e.size, e.mtimeMs, e.ctimeMs])));
  out.write('","found":[');
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
    const runs = toRuns((files as number[]).sort((a, b) => a - b));
    const row: WalkRow = [start, rule, runs, dirs.map(([k]) => k).join("\n"), packNumbers(dirs.flatMap(([, d]) => [d.mtimeMs, d.ctimeMs]))];
    out.write((first ? "" : ",") + JSON.stringify(row));
    first = false;
  }
  out.write("]}");
}

/**
 * Writes atomically: a private temporary file (0600, created exclusively, never through a
 * link) in the same directory, renamed over the old one once whole. A writer killed before the
 * rename leaves the old cache (and a temporary file that is never read, removed after an hour).
 * Throws when the folder has no usable key or the cache would exceed MAX_CACHE_BYTES.
 */
export function writeCacheFile(
  file: string,
  scope: string,
  started: number,
  entries: Map<string, CacheEntry>,
  walks: Map<string, CachedWalk> = new Map(),
): void {
  const rows = [...entries].filter(([key]) => !key.includes("\n") && !key.includes("\0")); // such a name: not cached
  const dir = path.dirname(file);
  const signingKey = cacheSigningKey(dir, true);
  if (typeof signingKey === "string") throw new Error(signingKey);
  removeStaleTemps(dir);
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    try {
      const header: Header = { format: FORMAT, version: FORMAT_VERSION, endian: endianness(), key: cacheKey(), scope, started };
      const headerLine = JSON.stringify(header);
      writeSync(fd, `${headerLine}\n`);
      const body = new ChunkWriter(fd, sign(signingKey).update(`${headerLine}\n`));
      writeBody(body, rows, walks);
      const trailer: Trailer = { entries: rows.length, mac: body.digest() };
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
