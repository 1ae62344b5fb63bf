// Whether a cache folder and a cache file may be trusted, and the per-user key that signs the
// entries. The cache decides what a scan reports without reading the sources, so a file anyone
// else could have written (another user in a shared folder, a repository that planted one)
// must never be used: the folder and the file must be ours and writable by us only, and every
// cache file carries an HMAC made with a key only we can read, kept beside the cache.
import { randomBytes } from "node:crypto";
import { closeSync, constants, lstatSync, mkdirSync, openSync, type Stats, writeSync } from "node:fs";
import path from "node:path";
import { isRefusal, readRegularSync } from "./safe-read.js";

const KEY_FILE = "key";
const KEY_BYTES = 32;

/** The current user's id; undefined where the platform has none (Windows: no ownership checks). */
const uid = (): number | undefined => process.getuid?.();

/**
 * Why a file or folder with this stat is not ours alone, or null: owned by another user, or
 * writable by group or others (who could then replace what it holds).
 */
export function notOurs(stat: Stats, what: string): string | null {
  const me = uid();
  if (me !== undefined && stat.uid !== me) return `${what} belongs to another user (uid ${stat.uid})`;
  if (process.platform !== "win32" && (stat.mode & 0o022) !== 0) {
    return `${what} is writable by ${stat.mode & 0o002 ? "others" : "its group"} (mode ${(stat.mode & 0o777).toString(8)})`;
  }
  return null;
}

/**
 * Creates the cache folder if missing (private: 0700), then tells why it cannot be trusted,
 * or null: it must be a real directory (not a link), ours alone.
 */
// speky:speky-ts#CACHE-UNTRUSTED
export function prepareCacheDir(dir: string, create: boolean): string | null {
  if (create) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      return `cannot create the cache folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
    }
  }
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (err) {
    return `no cache folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (stat.isSymbolicLink()) return "the cache folder is a symbolic link";
  if (!stat.isDirectory()) return "the cache folder is not a directory";
  return notOurs(stat, "the cache folder");
}

const keys = new Map<string, Buffer>();

/**
 * The key that signs the cache files of `dir` (created on first use, readable by us only), or
 * the reason there is none. The folder must have been checked by prepareCacheDir.
 */
export function cacheSigningKey(dir: string, create: boolean): Buffer | string {
  const known = keys.get(dir);
  if (known) return known;
  const file = path.join(dir, KEY_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    const read = readRegularSync(file, { noFollow: true, maxBytes: 1024 });
    if (!isRefusal(read)) {
      const why = notOurs(read.stat, "the cache key") ?? (read.stat.mode & 0o077 ? "the cache key is readable by others" : null);
      if (why) return why;
      const key = Buffer.from(read.bytes.toString("ascii").trim(), "hex");
      if (key.length !== KEY_BYTES) return "the cache key is malformed";
      keys.set(dir, key);
      return key;
    }
    if (read.code !== "ENOENT") return `the cache key: ${read.problem}`;
    if (!create) return "no cache key yet";
    // O_EXCL: of two processes creating it at once, one wins and the other reads its key.
    try {
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        writeSync(fd, `${randomBytes(KEY_BYTES).toString("hex")}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") return `cannot create the cache key (${(err as NodeJS.ErrnoException).code})`;
    }
  }
  return "the cache key cannot be read";
}
