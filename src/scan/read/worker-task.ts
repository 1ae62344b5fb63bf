// One file → its scan result and cache entry: read once as bytes, searched for the marker,
// and decoded and parsed only when it holds one. Runs the same in a pool worker and inline.
import { createHash } from "node:crypto";
import { closeSync, constants, openSync, readSync } from "node:fs";
import { isRefusal, openRegularSync, type Refusal, readFully as readAt } from "../../fs/safe-read.js";
import type { FileResult } from "../engine/file.js";
import { MARKER } from "../engine/tag.js";
import { preferBaselineWasm } from "./v8-flags.js";

/** What a later run compares to tell an unchanged file without reading it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** Changes with the content even when a tool restores mtime (rsync -t, tar, cp -p). */
  ctimeMs: number;
}

export interface CacheEntry extends FileStamp {
  /**
   * Content hash of a file holding the marker (a touched file then skips the parse); null
   * otherwise: re-reading such a file costs what hashing it would.
   */
  hash: string | null;
  /** null: no marker in the file, nothing found (FileResult of `noTags`). */
  result: FileResult | null;
}

/** What a worker needs of a cached entry: its result stays with the main thread. */
export interface CachedStamp extends FileStamp {
  hash: string | null;
}

export interface FileTask {
  absPath: string;
  /** The cached entry's stamp and hash, if the file was cached (and changed, or may have). */
  cached: CachedStamp | null;
  /** No cache will keep the outcome's stamp: the file is not fstat'ed unless its read is unusual. */
  unstamped?: boolean;
}

export type TaskOutcome =
  /** Same content as cached: the cached result stands, with this stamp. */
  { reuse: FileStamp } | { entry: CacheEntry } | { error: string };

/** A file read, found to hold the marker, not parsed yet. */
export interface PendingParse {
  absPath: string;
  stamp: FileStamp;
  hash: string;
  content: Buffer;
}

const MARKER_BYTES = Buffer.from(MARKER);
const CHUNK = 1 << 20;
/** Reused by every read of this thread: files are searched in place, copied only when tagged. */
const scratch = Buffer.allocUnsafe(CHUNK);

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);

/**
 * Larger files are not read: the marker search reads in chunks, but hashing and keeping a
 * tagged file of that size would not be bounded.
 */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

function refusalText(refusal: Refusal): string {
  if (refusal.code === "NOT_REGULAR") return `not a regular file (${refusal.kind}), not read`;
  if (refusal.code === "TOO_LARGE") return refusal.problem;
  return refusal.code;
}

export function contentHash(content: Buffer): string {
  return createHash("sha1").update(content).digest("base64");
}

/** What scanFileBuffer answers for a file without the marker. */
export function noTagsResult(language: string | null): FileResult {
  return { language, tags: [], diagnostics: [] };
}

const [S, P, E] = MARKER_BYTES;
/** The marker's tail: rarer in code than its head, so Buffer.indexOf stops on few false starts. */
const TAIL = MARKER_BYTES.subarray(3);

// speky:speky-ts#SCAN-SPEED
/**
 * Whether `bytes` hold the MARKER: its tail (`ky:`) is searched with Buffer.indexOf and the
 * head compared before each hit. On the bench tree's 300 MB: Buffer.indexOf of the whole
 * marker 132 ms of CPU, a memchr loop on its rarest byte (`k`, 1.6 million stops) 70-85 ms,
 * the tail 38-43 ms.
 */
export function holdsMarker(bytes: Buffer): boolean {
  for (let i = bytes.indexOf(TAIL, 3); i >= 0; i = bytes.indexOf(TAIL, i + 1)) {
    if (bytes[i - 1] === E && bytes[i - 2] === P && bytes[i - 3] === S) return true;
  }
  return false;
}

/** A file over CHUNK holding the marker: open, its marker found, not read whole yet (readWhole). */
export interface PendingWhole {
  task: FileTask;
  fd: number;
  stamp: FileStamp;
}

const WHOLE = Symbol("read whole");

/**
 * The content if it holds the marker, else null. A file up to CHUNK is read once into the
 * scratch buffer; a larger one is searched chunk by chunk (overlapping by the marker's length)
 * and, when it holds the marker, left to readWhole (WHOLE): how many such files are read at
 * once is the caller's to bound (the pool's budget, read/pool.ts).
 */
function contentWithMarker(fd: number, size: number): Buffer | null | typeof WHOLE {
  if (size <= CHUNK) {
    const bytes = scratch.subarray(0, readAt(fd, scratch, size, 0));
    return holdsMarker(bytes) ? Buffer.from(bytes) : null;
  }
  const overlap = MARKER_BYTES.length - 1;
  let found = false;
  for (let position = 0; position < size && !found; position += CHUNK - overlap) {
    const n = readAt(fd, scratch, Math.min(CHUNK, size - position), position);
    found = holdsMarker(scratch.subarray(0, n));
    if (n < CHUNK) break;
  }
  return found ? WHOLE : null;
}

/** Reads a PendingWhole (its stamp's size, the descriptor then closed) and settles it. */
export function readWhole(pending: PendingWhole): TaskOutcome | PendingParse {
  let content: Buffer;
  try {
    const whole = Buffer.allocUnsafe(pending.stamp.size);
    content = whole.subarray(0, readAt(pending.fd, whole, pending.stamp.size, 0));
  } catch (err) {
    return { error: `cannot read file: ${code(err)}` };
  } finally {
    closeSync(pending.fd);
  }
  return settled(pending.task, pending.stamp, content);
}

/** What an unstamped read says of the stamp it did not take (no cache keeps it). */
const UNSTAMPED = { mtimeMs: -1, ctimeMs: -1 };

/** The outcome of every unstamped file without the marker: a worker answers it as null. */
export const UNSTAMPED_NO_TAGS: TaskOutcome = { entry: { size: 0, ...UNSTAMPED, hash: null, result: null } };

/**
 * An uncached file in one open, read and close: without the fstat, a quarter of the calls of a
 * cold scan. The walk saw a regular file; a read that fills the buffer (a large file, or a
 * device swapped in since), finds nothing (an empty file, or a FIFO) or fails is left to
 * readTask's checked path (null), which tells them apart. A regular file's read stops short
 * only at its end.
 */
function readUnstamped(task: FileTask): TaskOutcome | PendingParse | null {
  let fd: number;
  try {
    fd = openSync(task.absPath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  let n: number;
  try {
    n = readSync(fd, scratch, 0, CHUNK, 0);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
  if (n === 0 || n === CHUNK) return null;
  const bytes = scratch.subarray(0, n);
  return holdsMarker(bytes) ? settled(task, { size: n, ...UNSTAMPED }, Buffer.from(bytes)) : UNSTAMPED_NO_TAGS;
}

/** A read file's outcome: no marker, the cached content again, or a parse to come. */
function settled(task: FileTask, stamp: FileStamp, content: Buffer | null): TaskOutcome | PendingParse {
  if (!content) return { entry: { ...stamp, hash: null, result: null } };
  const hash = contentHash(content);
  if (task.cached?.hash === hash) return { reuse: stamp };
  return { absPath: task.absPath, stamp, hash, content };
}

/**
 * Reads the file (one open, fstat, read, close) and settles it, unless it holds the marker and
 * its content isn't the cached one: then it needs a parse; or, over CHUNK and holding the
 * marker, a whole read (readWhole).
 */
export function readTask(task: FileTask): TaskOutcome | PendingParse | PendingWhole {
  if (task.unstamped && !task.cached) {
    const quick = readUnstamped(task);
    if (quick) return quick;
  }
  // Non-blocking, and only a regular file: the path may have become a FIFO since the walk.
  const opened = openRegularSync(task.absPath, { maxBytes: MAX_SOURCE_BYTES });
  if (isRefusal(opened)) return { error: `cannot read file: ${refusalText(opened)}` };
  const { fd, stat: st } = opened;
  const stamp: FileStamp = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  let content: Buffer | null | typeof WHOLE;
  try {
    // A file growing meanwhile is read up to its size at fstat, and its stamp says so.
    content = contentWithMarker(fd, st.size);
  } catch (err) {
    closeSync(fd);
    return { error: `cannot read file: ${code(err)}` };
  }
  if (content === WHOLE) return { task, fd, stamp };
  closeSync(fd);
  return settled(task, stamp, content);
}

/** The parser stack (web-tree-sitter and the grammars), imported by the first file to parse. */
let fileModule: Promise<typeof import("../engine/file.js")> | undefined;

function parserModule(): Promise<typeof import("../engine/file.js")> {
  if (!fileModule) {
    preferBaselineWasm();
    fileModule = import("../engine/file.js");
  }
  return fileModule;
}

/** Loads the parser stack and its runtime ahead of the first file (a pool worker at start). */
export async function warmUp(): Promise<void> {
  try {
    await parserModule();
    await (await import("../grammar/runtime.js")).initRuntime();
  } catch {
    // the first parse meets the same failure and reports it
  }
}

export async function parsePending(pending: PendingParse): Promise<TaskOutcome> {
  try {
    const result = await (await parserModule()).scanFileBuffer(pending.absPath, pending.content);
    return { entry: { ...pending.stamp, hash: pending.hash, result } };
  } catch (err) {
    return { error: `cannot scan file: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function isPending(x: TaskOutcome | PendingParse | PendingWhole): x is PendingParse {
  return "content" in x;
}

export function isWhole(x: TaskOutcome | PendingParse | PendingWhole): x is PendingWhole {
  return "fd" in x;
}

/** Reads and settles one file on this thread: a whole read at once (one file at a time here). */
function readNow(task: FileTask): TaskOutcome | PendingParse {
  const read = readTask(task);
  return isWhole(read) ? readWhole(read) : read;
}

export async function runTask(task: FileTask): Promise<TaskOutcome> {
  const read = readNow(task);
  return isPending(read) ? parsePending(read) : read;
}
