// One file → its scan result and cache entry: read once as bytes, searched for the marker,
// and decoded and parsed only when it holds one. Runs the same in a pool worker and inline.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { scanFileBuffer, type FileResult } from "./file.js";
import { MARKER } from "./text.js";

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

export interface FileTask {
  absPath: string;
  /** The cached entry of a file whose stamp changed (or can't be trusted): its result is
   * reused when the content hash is the same. */
  cached: CacheEntry | null;
}

export type TaskOutcome = { entry: CacheEntry } | { error: string };

/** A file read, found to hold the marker, not parsed yet. */
export interface PendingParse {
  absPath: string;
  stamp: FileStamp;
  hash: string;
  content: Buffer;
}

const MARKER_BYTES = Buffer.from(MARKER);
/** Reused for every read of this thread: files are searched in place, copied only when tagged. */
let scratch = Buffer.allocUnsafe(1 << 20);

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);

export function contentHash(content: Buffer): string {
  return createHash("sha1").update(content).digest("base64");
}

/** What scanFileBuffer answers for a file without the marker. */
export function noTagsResult(language: string | null): FileResult {
  return { language, tags: [], diagnostics: [] };
}

/** Reads the file (one open, fstat, read, close) and settles it unless it needs a parse. */
export function readTask(task: FileTask): TaskOutcome | PendingParse {
  let fd: number;
  try {
    fd = openSync(task.absPath, "r");
  } catch (err) {
    return { error: `cannot read file: ${code(err)}` };
  }
  let stamp: FileStamp;
  let length = 0;
  try {
    const st = fstatSync(fd);
    stamp = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    if (st.size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(st.size, scratch.length * 2));
    // Until EOF: a file growing meanwhile is read up to its size at fstat, and its stamp says so.
    while (length < st.size) {
      const n = readSync(fd, scratch, length, st.size - length, length);
      if (n === 0) break;
      length += n;
    }
  } catch (err) {
    return { error: `cannot read file: ${code(err)}` };
  } finally {
    closeSync(fd);
  }
  const bytes = scratch.subarray(0, length);
  if (bytes.indexOf(MARKER_BYTES) < 0) return { entry: { ...stamp, hash: null, result: null } };
  const content = Buffer.from(bytes);
  const hash = contentHash(content);
  const cached = task.cached;
  if (cached && cached.hash === hash && cached.result) return { entry: { ...stamp, hash, result: cached.result } };
  return { absPath: task.absPath, stamp, hash, content };
}

export async function parsePending(pending: PendingParse): Promise<TaskOutcome> {
  try {
    const result = await scanFileBuffer(pending.absPath, pending.content);
    return { entry: { ...pending.stamp, hash: pending.hash, result } };
  } catch (err) {
    return { error: `cannot scan file: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function isPending(x: TaskOutcome | PendingParse): x is PendingParse {
  return "content" in x;
}

export async function runTask(task: FileTask): Promise<TaskOutcome> {
  const read = readTask(task);
  return isPending(read) ? parsePending(read) : read;
}
