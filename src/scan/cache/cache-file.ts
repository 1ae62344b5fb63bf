// The scan cache's file format and its reading and writing (the rows as read are cache-rows.ts;
// the policy, what to trust and when, is cache.ts).
//
// A cache file is three lines: a header (format, version, build key, scope, start time), the
// body (one JSON object of columns, see Body) and a trailer (row count and an HMAC-SHA256 of
// header and body made with the user's key, cache-trust.ts). Written to a temporary file then
// renamed (a crash mid-write leaves the previous cache or none). Read as untrusted input: a
// regular file (never a link, FIFO or device), ours alone, size-capped, signature checked,
// then every field validated before use; any failure discards the whole file, with a reason.
import { createHmac, timingSafeEqual } from "node:crypto";
import { closeSync, constants, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { endianness } from "node:os";
import path from "node:path";
import { compareStrings } from "../../diagnostics.js";
import { isRefusal, readRegularSync } from "../../fs/safe-read.js";
import type { FileResult } from "../engine/file.js";
import type { CacheEntry } from "../read/worker-task.js";
import { checkBody, checkHeader, checkWalkRow, isCount, isObject, isString, unpackNumbers } from "./cache-check.js";
import { cacheKey, FORMAT, FORMAT_VERSION, filesOf } from "./cache-key.js";
import { type CachedWalk, CacheFile, RowColumns, walkId } from "./cache-rows.js";
import { cacheSigningKey, notOurs } from "./cache-trust.js";

/**
 * A cache file larger than this is neither read nor written: about 300,000 files' worth (the
 * bench's 25,000 files take 3 to 5 MB), and parsing it stays within the scan's memory budget.
 */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Temporary files of killed writers are removed after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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
 * `stamps`; `links`: the links the walk went through, each its key as walked and its real
 * path's key, NUL-separated, one per line; `unrowed`: the walk's files that are no row, one per
 * line (a file reached through a link that another walk reached first under its own name: the
 * scan read it once, as that row).
 */
type WalkRow = [start: string, rule: string, files: number[], dirs: string, dirStamps: string, links: string, unrowed: string];

/** Numbers as base64 of their Float64Array bytes, in this machine's byte order (the header says which). */
function packNumbers(values: Float64Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64");
}

/** `width` numbers of each item, item after item, straight into one array (no array per item). */
function columns<T>(items: readonly T[], width: number, fill: (item: T, into: Float64Array, at: number) => void): Float64Array {
  const values = new Float64Array(width * items.length);
  for (let i = 0; i < items.length; i++) fill(items[i], values, width * i);
  return values;
}

/** What JSON.stringify would change in a string: a quote, a backslash, a control character, a surrogate. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Rows of stamps packed at a time (3 numbers of 8 bytes each: base64 pieces join exactly). */
const STAMP_ROWS = 4096;

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
export function readCacheFile(file: string, scope: string, note: CacheNote = () => {}): CacheFile | null {
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
      const [start, rule, runs, , , , unrowed] = row as WalkRow;
      const files: string[][] = [];
      for (let i = 0; i < runs.length; i += 2) files.push(paths.slice(runs[i], runs[i] + runs[i + 1]));
      if (unrowed !== "") files.push(unrowed.split("\n"));
      cached.walks.set(walkId(start, rule), {
        runs,
        links: walk.links,
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

/**
 * Rows by key, for the walks' files: they come mostly in the rows' order, so the row after the
 * last one found is tried first; else a binary search (rows are sorted by compareStrings).
 * No map of a million keys.
 */
class RowIndex {
  private next = 0;

  constructor(private readonly rows: RowColumns) {}

  row(key: string): number | undefined {
    const rows = this.rows;
    if (this.next < rows.length && rows.key(this.next) === key) return this.next++;
    let lo = 0;
    let hi = rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = compareStrings(rows.key(mid), key);
      if (order === 0) {
        this.next = mid + 1;
        return mid;
      }
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}

/** The body (see Body), written column by column. */
function writeBody(out: ChunkWriter, rows: RowColumns, walks: Map<string, CachedWalk>): void {
  out.write('{"paths":"');
  for (let i = 0; i < rows.length; i++) {
    const key = rows.key(i);
    if (i > 0) out.write("\\n");
    out.write(NEEDS_ESCAPE.test(key) ? JSON.stringify(key).slice(1, -1) : key);
  }
  out.write('","stamps":"');
  // In runs of STAMP_ROWS rows (a multiple of 3 bytes each: their base64 strings join as the
  // whole column's): no column as long as the cache in memory, nor its base64 copies.
  const run = new Float64Array(3 * STAMP_ROWS);
  for (let from = 0; from < rows.length; from += STAMP_ROWS) {
    const count = Math.min(STAMP_ROWS, rows.length - from);
    for (let k = 0; k < count; k++) rows.stampInto(from + k, run, 3 * k);
    out.write(packNumbers(run.subarray(0, 3 * count)));
  }
  out.write('","found":[');
  let first = true;
  for (let i = 0; i < rows.length; i++) {
    const found = rows.foundAt(i);
    if (!found) continue;
    out.write((first ? "" : ",") + JSON.stringify([i, found[0], found[1]]));
    first = false;
  }
  out.write('],"walks":[');
  const index = new RowIndex(rows);
  first = true;
  for (const [id, walk] of walks) {
    // A walk with a newline in a name is walked again next time; its files that are no row
    // (reached through a link, read under another walk's name) are kept apart.
    const odd = (key: string) => key.includes("\n") || key.includes("\0");
    if (walk.files.some(odd) || walk.dirs.some(([key]) => odd(key)) || walk.links.some((pair) => pair.some(odd))) continue;
    const files: number[] = [];
    const unrowed: string[] = [];
    for (const key of walk.files) {
      const row = index.row(key);
      if (row === undefined) unrowed.push(key);
      else files.push(row);
    }
    const [start, rule] = id.split("\0");
    const dirs = walk.dirs;
    const runs = toRuns(files.sort((a, b) => a - b));
    const row: WalkRow = [
      start,
      rule,
      runs,
      dirs.map(([k]) => k).join("\n"),
      packNumbers(
        columns(dirs, 2, ([, d], into, at) => {
          into[at] = d.mtimeMs;
          into[at + 1] = d.ctimeMs;
        }),
      ),
      walk.links.map((pair) => pair.join("\0")).join("\n"),
      unrowed.join("\n"),
    ];
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
  entries: RowColumns | ReadonlyMap<string, CacheEntry>,
  walks: Map<string, CachedWalk> = new Map(),
): void {
  let rows: RowColumns;
  if (entries instanceof RowColumns) rows = entries;
  else {
    rows = new RowColumns();
    for (const [key, entry] of entries) rows.addEntry(key, entry);
  }
  rows.sort();
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
