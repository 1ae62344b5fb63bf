// Opening a file named by a repository, which may be hostile: every read of a spec file, a
// CSV, a source file or a cache file goes through here.
//
// - O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever (the
//   file may have been swapped for a FIFO after the walk saw a regular file).
// - O_NOFOLLOW when the caller expects no link (a cache file): a link is refused, not followed.
// - fstat on the open descriptor, not stat on the path: what is checked is what is read. Only a
//   regular file is read: a FIFO, a socket or a device (/dev/zero, /dev/stdin) could be endless.
// - a size cap, checked before reading; and never more than the size fstat gave is read.
import fs from "node:fs";

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;

export interface SafeOpenOptions {
  /** Refuse a symbolic link as the last component (ELOOP) instead of following it. */
  noFollow?: boolean;
  /** Refuse a file larger than this many bytes, unread. Default: no cap (the caller reads in bounded chunks). */
  maxBytes?: number;
}

/** Why a file was not read, in words for a diagnostic (never quoting the file's content). */
export interface Refusal {
  /** errno code, or NOT_REGULAR / TOO_LARGE. */
  code: string;
  problem: string;
  /** For NOT_REGULAR: what it is ("a FIFO", "a device"...). */
  kind?: string;
}

export interface OpenFile {
  fd: number;
  stat: fs.Stats;
}

export interface FileBytes {
  bytes: Buffer;
  stat: fs.Stats;
}

const MB = 1024 * 1024;

export function isRefusal(x: unknown): x is Refusal {
  return typeof x === "object" && x !== null && "problem" in x;
}

function flags(options: SafeOpenOptions): number {
  // O_NOFOLLOW and O_NONBLOCK are 0/undefined where the platform lacks them (Windows).
  return O_RDONLY | (O_NONBLOCK ?? 0) | (options.noFollow ? (O_NOFOLLOW ?? 0) : 0);
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function refusalOfError(err: unknown, options: SafeOpenOptions): Refusal {
  const code = (err as NodeJS.ErrnoException).code ?? "EIO";
  if (code === "ENOENT") return { code, problem: "file not found" };
  if (code === "ELOOP" && options.noFollow) return { code, problem: "a symbolic link, not followed here" };
  if (code === "EISDIR") return { code, problem: "this is a directory, not a file" };
  return { code, problem: `cannot read the file (${code})` };
}

/** A refusal for what fstat told, or null when the file may be read. */
function checkStat(stat: fs.Stats, options: SafeOpenOptions): Refusal | null {
  if (!stat.isFile()) {
    if (stat.isDirectory()) return { code: "EISDIR", problem: "this is a directory, not a file" };
    return { code: "NOT_REGULAR", problem: "this is not a regular file", kind: kindOf(stat) };
  }
  if (options.maxBytes !== undefined && stat.size > options.maxBytes) {
    return {
      code: "TOO_LARGE",
      problem: `file is too large (${(stat.size / MB).toFixed(1)} MB; the limit is ${+(options.maxBytes / MB).toFixed(1)} MB)`,
    };
  }
  return null;
}

// speky:speky-ts#WALK-SAFE-READ
/** Opens a regular file for reading without ever blocking; the caller closes the descriptor. */
export function openRegularSync(file: string, options: SafeOpenOptions = {}): OpenFile | Refusal {
  let fd: number;
  try {
    fd = fs.openSync(file, flags(options));
  } catch (err) {
    return refusalOfError(err, options);
  }
  try {
    const stat = fs.fstatSync(fd);
    const refusal = checkStat(stat, options);
    if (refusal) {
      fs.closeSync(fd);
      return refusal;
    }
    return { fd, stat };
  } catch (err) {
    fs.closeSync(fd);
    return refusalOfError(err, options);
  }
}

/** Up to `length` bytes of `fd` from `position` into `into`; fewer at end of file. */
export function readFully(fd: number, into: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    let n: number;
    try {
      n = fs.readSync(fd, into, done, length - done, position + done);
    } catch (err) {
      // A regular file opened with O_NONBLOCK does not answer EAGAIN; anything else is an error.
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") break;
      throw err;
    }
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** The whole content of a regular file (at most the size fstat gave, at most maxBytes). */
export function readRegularSync(file: string, options: SafeOpenOptions = {}): FileBytes | Refusal {
  const opened = openRegularSync(file, options);
  if (isRefusal(opened)) return opened;
  try {
    const bytes = Buffer.allocUnsafe(opened.stat.size);
    return { bytes: bytes.subarray(0, readFully(opened.fd, bytes, bytes.length, 0)), stat: opened.stat };
  } catch (err) {
    return refusalOfError(err, options);
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** readRegularSync without blocking the event loop (the MCP server reloads while serving). */
export async function readRegular(file: string, options: SafeOpenOptions = {}): Promise<FileBytes | Refusal> {
  const opened = await openRegular(file, options);
  if (isRefusal(opened)) return opened;
  const { handle, stat } = opened;
  try {
    const bytes = Buffer.allocUnsafe(stat.size);
    let done = 0;
    while (done < bytes.length) {
      const { bytesRead } = await handle.read(bytes, done, bytes.length - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return { bytes: bytes.subarray(0, done), stat };
  } catch (err) {
    return refusalOfError(err, options);
  } finally {
    await handle.close();
  }
}

/** openRegularSync without blocking: a handle to read in chunks (results files); the caller closes it. */
export async function openRegular(
  file: string,
  options: SafeOpenOptions = {},
): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats } | Refusal> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, flags(options));
  } catch (err) {
    return refusalOfError(err, options);
  }
  try {
    const stat = await handle.stat();
    const refusal = checkStat(stat, options);
    if (refusal === null) return { handle, stat };
    await handle.close();
    return refusal;
  } catch (err) {
    await handle.close();
    return refusalOfError(err, options);
  }
}
