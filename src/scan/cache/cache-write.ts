// The scan cache's file written (its format and reading: cache-file.ts): column by column, in
// chunks signed on the way, to a private temporary file renamed over the old one.
import { closeSync, constants, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { endianness } from "node:os";
import path from "node:path";
import { compareStrings } from "../../diagnostics.js";
import { cacheSigningKey } from "../../fs/cache-trust.js";
import type { CacheEntry } from "../read/worker-task.js";
import { type Header, layout, MAX_CACHE_BYTES, packNumbers, sign, type Trailer, type WalkRow } from "./cache-file.js";
import { buildFingerprint, cacheKey, FORMAT, FORMAT_VERSION, filesOf } from "./cache-key.js";
import { type CachedWalk, cacheableKey, RowColumns } from "./cache-rows.js";

/** Temporary files of killed writers are removed after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** `width` numbers of each item, item after item, straight into one array (no array per item). */
function columns<T>(items: readonly T[], width: number, fill: (item: T, into: Float64Array, at: number) => void): Float64Array {
  const values = new Float64Array(width * items.length);
  for (let i = 0; i < items.length; i++) fill(items[i], values, width * i);
  return values;
}

/** Rows of stamps written at a time. */
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

/** Text and bytes to a file descriptor in chunks, signed on the way: no whole copy of the cache in memory. */
class ChunkWriter {
  /** Text written since the last bytes, joined once. */
  private readonly text: string[] = [];
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private written = 0;

  constructor(
    private readonly fd: number,
    private readonly mac: ReturnType<typeof sign>,
  ) {}

  write(part: string | Uint8Array): void {
    if (typeof part === "string") this.text.push(part);
    else {
      this.endText();
      // A copy: the caller reuses its buffer.
      this.chunks.push(Buffer.from(part));
    }
    this.length += part.length;
    if (this.length >= 1 << 16) this.flush();
  }

  private endText(): void {
    if (this.text.length === 0) return;
    this.chunks.push(Buffer.from(this.text.join("")));
    this.text.length = 0;
  }

  flush(): void {
    this.endText();
    if (this.chunks.length === 0) return;
    const chunk = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks.length = 0;
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

/** The bytes of the paths' section (see layout): each key's UTF-8 and a newline between them. */
function pathBytes(rows: RowColumns): number {
  let bytes = Math.max(0, rows.length - 1);
  for (let i = 0; i < rows.length; i++) bytes += Buffer.byteLength(rows.key(i));
  return bytes;
}

/** The stamps, the paths and the meta line (see layout), after the header line and its padding. */
function writeColumns(out: ChunkWriter, rows: RowColumns, walks: Map<string, CachedWalk>): void {
  // In runs of STAMP_ROWS rows: no column as long as the cache in memory.
  const run = new Float64Array(3 * STAMP_ROWS);
  for (let from = 0; from < rows.length; from += STAMP_ROWS) {
    const count = Math.min(STAMP_ROWS, rows.length - from);
    for (let k = 0; k < count; k++) rows.stampInto(from + k, run, 3 * k);
    out.write(new Uint8Array(run.buffer, 0, 24 * count));
  }
  for (let i = 0; i < rows.length; i++) out.write(i === 0 ? rows.key(i) : `\n${rows.key(i)}`);
  out.write('{"found":[');
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
    // A walk with a name the paths' section can't hold is walked again next time; its files
    // that are no row (reached through a link, read under another walk's name) are kept apart.
    if (walk.dirs.some(([key]) => !cacheableKey(key)) || walk.links.some((pair) => !pair.every(cacheableKey))) continue;
    const files: number[] = [];
    const unrowed: string[] = [];
    let oddFile = false;
    // A row's key was told cacheable when it was added (RowColumns.add): only the others are.
    const visit = (key: string) => {
      const row = index.row(key);
      if (row !== undefined) files.push(row);
      else if (cacheableKey(key)) unrowed.push(key);
      else oddFile = true;
    };
    if (walk.eachFile) walk.eachFile(visit);
    else walk.files.forEach(visit);
    if (oddFile) continue;
    unrowed.sort();
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
      const header: Header = {
        format: FORMAT,
        version: FORMAT_VERSION,
        endian: endianness(),
        key: cacheKey(),
        fingerprint: buildFingerprint(),
        scope,
        started,
        rows: rows.length,
        pathBytes: pathBytes(rows),
      };
      const headerLine = Buffer.from(JSON.stringify(header));
      // Its newline, then zeros up to where the stamps start (a multiple of 8: read in place).
      const padding = Buffer.alloc(layout(headerLine.length, 0, 0).stampsAt - headerLine.length);
      padding[0] = 0x0a;
      const out = new ChunkWriter(fd, sign(signingKey));
      out.write(headerLine);
      out.write(padding);
      writeColumns(out, rows, walks);
      const trailer: Trailer = { entries: rows.length, mac: out.digest() };
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
