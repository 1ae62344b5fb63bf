// The scan cache's file format and its reading (its writing is cache-write.ts; the rows as read
// are cache-rows.ts; the policy, what to trust and when, is cache.ts).
//
// A cache file holds, in this order (format 8; see `layout`): a header line (format, version,
// build key and fingerprint, scope, start time, the row count and the paths' byte count), the
// rows' stamps as raw doubles, their paths one per line, the meta line (JSON: the files holding
// the marker, the walks) and a trailer line (row count and an HMAC-SHA256 of every byte before
// it, made with the user's key, cache-trust.ts). The columns are read in place, not decoded:
// the bench tree's cache (25,402 files) took 60-88 ms to read in format 7 (one JSON line, the
// stamps in base64: decoding, parsing, and faulting in the memory they took), 41-47 ms in this
// one (2.5 MB instead of 2.8; 4 pairs of fresh processes). Written to a
// temporary file then renamed (a crash mid-write leaves the previous cache or none). Read as
// untrusted input: a regular file (never a link, FIFO or device), ours alone, size-capped,
// signature checked, then every field validated before use; any failure discards the whole
// file, with a reason.
import { createHmac, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { cacheSigningKey, notOurs } from "../../fs/cache-trust.js";
import { isRefusal, readRegularSync } from "../../fs/safe-read.js";
import type { FileResult } from "../engine/file.js";
import type { DirStamp } from "../walk/walk.js";
import { checkHeader, checkMeta, checkWalkRow, isObject, isString } from "./cache-check.js";
import { adoptCacheKey, buildFingerprint, cacheKey, knownCacheKey } from "./cache-key.js";
import { CacheFile, walkId } from "./cache-rows.js";
import { PathColumn, plainPaths } from "./path-column.js";

/**
 * A cache file larger than this is neither read nor written: about 300,000 files' worth (the
 * bench's 25,000 files take 2 to 4 MB), and reading it stays within the scan's memory budget.
 */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Where each part of a cache file lies, after the header line and its newline:
 * - zero bytes up to the next offset that is a multiple of 8 (`stampsAt`);
 * - the stamps: 3 doubles per row (size, mtime, ctime), in the writer's byte order (the header
 *   says which), read in place as a Float64Array;
 * - the paths (`header.pathBytes` bytes): row i's is line i, relative to the cache's base or
 *   absolute, UTF-8;
 * - the meta line (Meta, JSON) up to the trailer's newline.
 * Rows are in path order (compareStrings), the order a scan looks its files up in.
 */
export function layout(headerBytes: number, rows: number, pathBytes: number): { stampsAt: number; pathsAt: number; metaAt: number } {
  const stampsAt = Math.ceil((headerBytes + 1) / 8) * 8;
  const pathsAt = stampsAt + 24 * rows;
  return { stampsAt, pathsAt, metaAt: pathsAt + pathBytes };
}

/** The meta line: what is not one number or one path per row. */
export interface Meta {
  /** The files holding the marker: their row, content hash and result. */
  found: [row: number, hash: string, result: FileResult][];
  /** Remembered walks: start and rule, the files found (as rows), the directories listed. */
  walks: WalkRow[];
}

/**
 * `files`: runs of rows, [first, count, first, count, ...] (a walk's files are mostly one run:
 * rows are in path order); `dirs`: one key per line; `dirStamps`: mtime and ctime per dir, as
 * base64 of their doubles; `links`: the links the walk went through, each its key as walked and
 * its real path's key, NUL-separated, one per line; `unrowed`: the walk's files that are no row,
 * one per line (a file reached through a link that another walk reached first under its own
 * name: the scan read it once, as that row).
 */
export type WalkRow = [start: string, rule: string, files: number[], dirs: string, dirStamps: string, links: string, unrowed: string];

/** Numbers as base64 of their Float64Array bytes, in this machine's byte order (the header says which). */
export function packNumbers(values: Float64Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64");
}

/** The first line. */
export interface Header {
  format: string;
  version: number;
  /** os.endianness() of the writer: the packed numbers are in its byte order. */
  endian: string;
  key: string;
  /** The writer's buildFingerprint: a cache from a build of this fingerprint has this build's key. */
  fingerprint: string;
  scope: string;
  /** Date.now() when the scan that wrote the cache started. */
  started: number;
  /** The rows, and the bytes of their paths (see layout). */
  rows: number;
  pathBytes: number;
}

/** The last line, after the meta line: a file cut anywhere lacks it or fails its signature. */
export interface Trailer {
  /** The rows (as the header says). */
  entries: number;
  /** HMAC-SHA256 of every byte before the trailer's newline, with the user's key; base64. */
  mac: string;
}

export const sign = (key: Buffer) => createHmac("sha256", key);

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Why a cache file was not used (for --verbose); silent for a cache not written yet. */
export type CacheNote = (why: string) => void;

/** The stamps' doubles in place when aligned (a read buffer of its own is), else a copy. */
function stampColumn(bytes: Buffer, at: number, count: number): Float64Array {
  const offset = bytes.byteOffset + at;
  if (offset % 8 === 0) return new Float64Array(bytes.buffer, offset, count);
  const copy = new Float64Array(count);
  new Uint8Array(copy.buffer).set(bytes.subarray(at, at + 8 * count));
  return copy;
}

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
  const bytes = read.bytes;
  const first = bytes.indexOf(0x0a);
  const last = bytes.lastIndexOf(0x0a, bytes.length - 2);
  if (first < 0 || last <= first || bytes[bytes.length - 1] !== 0x0a) return refuse("truncated");
  try {
    const header = JSON.parse(bytes.toString("utf8", 0, first)) as unknown;
    const badHeader = checkHeader(header);
    if (badHeader) return refuse(badHeader);
    const h = header as Header;
    // Known key or same files as the writer's: no hashing (the key is adopted once signed).
    const sameFiles = knownCacheKey() === null && h.fingerprint === buildFingerprint();
    if (!sameFiles && h.key !== cacheKey()) return refuse("written by another build of speky-ts");
    if (h.scope !== scope) return refuse("written for another scope");
    const trailer = JSON.parse(bytes.toString("utf8", last + 1, bytes.length - 1)) as unknown;
    if (!isObject(trailer) || trailer.entries !== h.rows || !isString(trailer.mac)) return refuse("trailer is invalid");
    const mac = sign(signingKey).update(bytes.subarray(0, last)).digest("base64");
    if (!sameMac(mac, trailer.mac)) return refuse("its signature does not verify");
    if (sameFiles) adoptCacheKey(h.key);
    const rows = h.rows;
    const { stampsAt, pathsAt, metaAt } = layout(first, rows, h.pathBytes);
    // The meta line starts where the header says, after zero bytes of padding.
    if (metaAt >= last || bytes[metaAt] !== 0x7b || bytes.subarray(first + 1, stampsAt).some((b) => b !== 0))
      return refuse("sections are invalid");
    const meta = JSON.parse(bytes.toString("utf8", metaAt, last)) as unknown;
    const badMeta = checkMeta(meta, rows);
    if (badMeta) return refuse(badMeta);
    const m = meta as Meta;
    const paths = PathColumn.of(bytes.subarray(pathsAt, metaAt), rows);
    if (typeof paths === "string") return refuse(paths);
    // Stamps are only compared with fresh ones, and a time not before the caching run (NaN
    // included) is not trusted (cache.ts): any number is safe.
    const cached = new CacheFile(h.started, paths, stampColumn(bytes, stampsAt, 3 * rows), m.found);
    const plainRows = path.sep === "/" && paths.plain();
    for (const row of m.walks) {
      const walk = checkWalkRow(row, rows);
      if (typeof walk === "string") return refuse(walk);
      const [start, rule, runs, , , , unrowed] = row as WalkRow;
      const dirs = walk.dirKeys.map((k, i): [string, DirStamp] => [
        k,
        { mtimeMs: walk.dirStamps[2 * i], ctimeMs: walk.dirStamps[2 * i + 1] },
      ]);
      const plainFiles = plainRows && (unrowed === "" || plainPaths(unrowed));
      cached.walks.set(
        walkId(start, rule),
        cached.walk(runs, unrowed === "" ? [] : unrowed.split("\n"), { dirs, links: walk.links, plainFiles }),
      );
    }
    return cached;
  } catch (err) {
    return refuse(`not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}
