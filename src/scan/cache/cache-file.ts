// The scan cache's file format and its reading (its writing is cache-write.ts; the rows as read
// are cache-rows.ts; the policy, what to trust and when, is cache.ts).
//
// A cache file is three lines: a header (format, version, build key and fingerprint, scope,
// start time), the body (one JSON object of columns, see Body) and a trailer (row count and an
// HMAC-SHA256 of header and body made with the user's key, cache-trust.ts). Written to a
// temporary file then renamed (a crash mid-write leaves the previous cache or none). Read as
// untrusted input: a regular file (never a link, FIFO or device), ours alone, size-capped,
// signature checked, then every field validated before use; any failure discards the whole
// file, with a reason.
import { createHmac, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { isRefusal, readRegularSync } from "../../fs/safe-read.js";
import type { FileResult } from "../engine/file.js";
import { checkBody, checkHeader, checkWalkRow, isCount, isObject, isString, unpackNumbers } from "./cache-check.js";
import { adoptCacheKey, buildFingerprint, cacheKey, knownCacheKey } from "./cache-key.js";
import { CacheFile, walkId } from "./cache-rows.js";
import { cacheSigningKey, notOurs } from "./cache-trust.js";

/**
 * A cache file larger than this is neither read nor written: about 300,000 files' worth (the
 * bench's 25,000 files take 3 to 5 MB), and parsing it stays within the scan's memory budget.
 */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The body, by columns (one JSON parse of a few long strings, no object per file): file i is
 * line i of `paths` (relative to the cache's base, or absolute) and numbers 3i to 3i+2 of
 * `stamps` (size, mtime, ctime); the files holding the marker have their hash and result
 * under their index. Numbers are kept as the bytes of a Float64Array in base64: decoding them
 * costs nothing next to parsing 75,000 JSON numbers (a warm scan of 25,000 files).
 */
export interface Body {
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
}

/** The last line, written after the body: a file cut anywhere lacks it or fails its signature. */
export interface Trailer {
  entries: number;
  /** HMAC-SHA256 of the header line, a newline and the body line, with the user's key; base64. */
  mac: string;
}

export const sign = (key: Buffer) => createHmac("sha256", key);

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether no path of a list (one per line) is absolute or has a `..` part: one test of the whole list. */
const plainPaths = (lines: string) => path.sep === "/" && !/(?:^|\n)\/|(?:^|\n|\/)\.\.(?:\/|\n|$)/.test(lines);

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
    // Known key or same files as the writer's: no hashing (the key is adopted once signed).
    const sameFiles = knownCacheKey() === null && h.fingerprint === buildFingerprint();
    if (!sameFiles && h.key !== cacheKey()) return refuse("written by another build of speky-ts");
    if (h.scope !== scope) return refuse("written for another scope");
    const trailer = JSON.parse(text.slice(last + 1, -1)) as unknown;
    if (!isObject(trailer) || !isCount(trailer.entries) || !isString(trailer.mac)) return refuse("trailer is invalid");
    const body = text.slice(first + 1, last);
    const mac = sign(signingKey).update(`${headerLine}\n`).update(body).digest("base64");
    if (!sameMac(mac, trailer.mac)) return refuse("its signature does not verify");
    if (sameFiles) adoptCacheKey(h.key);
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
    const cached = new CacheFile(h.started, paths, stamps, b.found);
    const plainRows = plainPaths(b.paths);
    for (const row of b.walks) {
      const walk = checkWalkRow(row, paths.length);
      if (typeof walk === "string") return refuse(walk);
      const [start, rule, runs, , , , unrowed] = row as WalkRow;
      const files: string[][] = [];
      for (let i = 0; i < runs.length; i += 2) files.push(paths.slice(runs[i], runs[i] + runs[i + 1]));
      if (unrowed !== "") files.push(unrowed.split("\n"));
      cached.walks.set(walkId(start, rule), {
        runs,
        plainFiles: plainRows && (unrowed === "" || plainPaths(unrowed)),
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
