// Whether the files a report was made from are as HEAD has them: each file read (specs,
// manifests, tagged code) hashed here as git hashes a blob and compared with HEAD's tree, from
// `git ls-tree` (plumbing: nothing of the working tree is read through git, so no clean filter
// or fsmonitor of a hostile repository runs). A file HEAD does not have counts as uncommitted.
// A checkout that converts line endings (core.autocrlf) may count a file as changed: the mark
// says "may differ", never more.
import { createHash } from "node:crypto";
import path from "node:path";
import { toPosix } from "../fs/paths.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { findRepository } from "./repository.js";
import { listTree } from "./tree-entries.js";

/** Files larger than this are not hashed (counted as unknown, not as changed). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

function blobId(bytes: Buffer, oidLength: number): string {
  const hash = createHash(oidLength === 64 ? "sha256" : "sha1");
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest("hex");
}

// speky:speky-ts#REPORT-UNCOMMITTED
/**
 * How many of `files` (absolute paths) differ from HEAD's, or are not in it; null outside git or
 * without a commit. Files outside the work tree are not counted.
 */
export async function uncommittedCount(dir: string, files: Iterable<string>): Promise<number | null> {
  let repo: Awaited<ReturnType<typeof findRepository>>;
  try {
    repo = await findRepository(dir);
  } catch {
    return null;
  }
  let listing: Awaited<ReturnType<typeof listTree>>;
  try {
    listing = await listTree(repo, "HEAD", Number.MAX_SAFE_INTEGER);
  } catch {
    return null;
  }
  const committed = new Map(listing.entries.map((e) => [e.path, e.oid]));
  const oidLength = listing.entries[0]?.oid.length ?? 40;
  let count = 0;
  for (const abs of new Set(files)) {
    const rel = path.relative(repo.root, abs);
    if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
    const oid = committed.get(toPosix(rel));
    if (oid === undefined) {
      count++;
      continue;
    }
    const read = readRegularSync(abs, { maxBytes: MAX_HASHED_BYTES, noFollow: true });
    if (isRefusal(read)) continue;
    if (blobId(read.bytes, oidLength) !== oid) count++;
  }
  return count;
}
