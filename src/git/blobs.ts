// Writes files of a git tree into a snapshot folder from `git cat-file --batch`: the object
// names go in on standard input, the contents come out as one stream (`<oid> blob <size>\n`,
// the bytes, `\n`), written to disk as they arrive: memory holds one chunk, not the tree.
//
// The folder is ours (private, in the cache folder), but the names and the links come from the
// repository: every folder on the way to a file is made a real folder here (a link or a file
// in its place is removed, never followed), and files are opened with O_NOFOLLOW. A link's
// target is kept in memory only up to MAX_LINK_TARGET_BYTES, and one that no file system takes
// (a NUL byte, longer than that) is not written: an `Unwritten` entry, which `speky diff`
// reports as a warning at its file, and the comparison goes on (issue 48).
import fs from "node:fs";
import path from "node:path";
import { GitError } from "./git-error.js";
import type { Repository } from "./repository.js";
import { streamGit } from "./run-git.js";
import type { TreeEntry } from "./tree-entries.js";

const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;

/**
 * The longest link target kept: Linux's PATH_MAX, 4,096 bytes with its terminating NUL, which no
 * symlink(2) target may reach. A link blob is the target's bytes; git takes blobs of any size
 * (a 200 MB link blob made `diff` peak at 1 GB when read whole).
 */
export const MAX_LINK_TARGET_BYTES = 4096;

// speky:speky-ts#DIFF-LINK-BLOBS
/** A file of the tree not written into the snapshot, and why: reported, never silent. */
export interface Unwritten {
  /** `/`-separated, from the tree's top. */
  path: string;
  reason: string;
}

export const LINK_TOO_LONG = `a symbolic link whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes: not read, compared as absent`;
export const LINK_HOLDS_NUL = "a symbolic link whose target holds a NUL byte: not written, compared as absent";
const WRITE_FLAGS = O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0);

/** Makes the folders leading to files under one root, each once, as real folders. */
export class FolderMaker {
  private readonly made = new Set<string>();
  constructor(private readonly root: string) {}

  /** The absolute path of `rel`, its parent folders made. */
  prepare(rel: string): string {
    const parts = rel.split("/");
    let dir = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      dir = path.join(dir, parts[i]);
      if (this.made.has(dir)) continue;
      let stat: fs.Stats | null = null;
      try {
        stat = fs.lstatSync(dir);
      } catch {
        stat = null;
      }
      if (stat && !stat.isDirectory()) {
        fs.rmSync(dir, { force: true });
        stat = null;
      }
      if (!stat) fs.mkdirSync(dir, { mode: 0o700 });
      this.made.add(dir);
    }
    return path.join(this.root, ...parts);
  }
}

/** Removes whatever is at `abs` (a link itself, never its target; a folder with what it holds). */
export function removePath(abs: string): void {
  fs.rmSync(abs, { recursive: true, force: true });
}

/**
 * Removes the file `rel` of a snapshot under `root`, only when every folder on its way is a real
 * folder: a link in the way (a tree naming `a` as a link and `a/x` as a file) is never passed.
 */
export function removeEntry(root: string, rel: string): void {
  const parts = rel.split("/");
  let dir = root;
  for (let i = 0; i < parts.length - 1; i++) {
    dir = path.join(dir, parts[i]);
    try {
      if (!fs.lstatSync(dir).isDirectory()) return;
    } catch {
      return;
    }
  }
  removePath(path.join(dir, parts[parts.length - 1]));
}

function openForWrite(abs: string, mode: string): number {
  const perms = mode === "100755" ? 0o700 : 0o600;
  try {
    return fs.openSync(abs, WRITE_FLAGS, perms);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ELOOP" && code !== "EISDIR" && code !== "EEXIST") throw error;
    removePath(abs);
    return fs.openSync(abs, WRITE_FLAGS, perms);
  }
}

/** One blob being written: to the first path as it streams, then copied to the others. */
class BlobSink {
  private fd: number | null = null;
  private link: Buffer[] | null = null;
  failed = 0;
  /** Why this blob's entries were not written, when it is a link no file system takes. */
  refused: string | null = null;

  constructor(
    private readonly folders: FolderMaker,
    private readonly entries: TreeEntry[],
    size: number,
  ) {
    const first = entries[0];
    if (first.mode === "120000") {
      // The blob streams by and is dropped: never more than the bound in memory.
      if (size > MAX_LINK_TARGET_BYTES) this.refuse(LINK_TOO_LONG);
      else this.link = [];
      return;
    }
    try {
      this.fd = openForWrite(folders.prepare(first.path), first.mode);
    } catch (error) {
      if (!perFileError(error)) throw error;
      this.failed = entries.length;
    }
  }

  write(bytes: Buffer): void {
    if (this.link) this.link.push(bytes);
    else if (this.fd !== null) fs.writeSync(this.fd, bytes);
  }

  private refuse(reason: string): void {
    this.refused = reason;
    this.failed = this.entries.length;
  }

  end(): void {
    if (this.link) {
      // The target's bytes as git holds them (a name need not be UTF-8).
      const target = Buffer.concat(this.link);
      if (target.includes(0)) this.refuse(LINK_HOLDS_NUL);
      else for (const entry of this.entries) this.guard(() => writeLink(this.folders.prepare(entry.path), target));
      return;
    }
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    const source = this.folders.prepare(this.entries[0].path);
    for (const entry of this.entries.slice(1)) {
      this.guard(() => {
        const abs = this.folders.prepare(entry.path);
        removePath(abs);
        fs.copyFileSync(source, abs, fs.constants.COPYFILE_EXCL);
        if (entry.mode === "100755") fs.chmodSync(abs, 0o700);
      });
    }
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (!perFileError(error)) throw error;
      this.failed++;
    }
  }
}

function writeLink(abs: string, target: Buffer): void {
  removePath(abs);
  fs.symlinkSync(target, abs);
}

/** An error that concerns one file's name (too long, a clash): that file is skipped. */
function perFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENAMETOOLONG" || code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR" || code === "EINVAL" || code === "EILSEQ";
}

export interface BlobsWritten {
  /** Files (and links) written. */
  written: number;
  /** Files not written: missing objects, names the file system refused, links refused. */
  failed: number;
  /** The links refused, each with its reason. */
  unwritten: Unwritten[];
}

// speky:speky-ts#DIFF-SNAPSHOT
/** Writes the entries (grouped by object) under the FolderMaker's root. */
export async function writeBlobs(repo: Repository, folders: FolderMaker, byOid: ReadonlyMap<string, TreeEntry[]>): Promise<BlobsWritten> {
  const order = [...byOid.keys()];
  const outcome: BlobsWritten = { written: 0, failed: 0, unwritten: [] };
  if (order.length === 0) return outcome;
  const git = streamGit(repo.root, ["cat-file", "--batch"]);
  git.child.stdin.end(`${order.join("\n")}\n`);
  let next = 0;
  let header: Buffer[] = [];
  let sink: BlobSink | null = null;
  let remaining = 0;
  /** After a blob's bytes, its trailing line feed. */
  let trailer = false;
  let entries: TreeEntry[] = [];
  const finish = () => {
    sink!.end();
    outcome.written += entries.length - sink!.failed;
    outcome.failed += sink!.failed;
    const refused = sink!.refused;
    if (refused !== null) for (const entry of entries) outcome.unwritten.push({ path: entry.path, reason: refused });
    sink = null;
    trailer = true;
  };
  for await (const chunk of git.child.stdout as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      if (trailer) {
        at++; // the "\n" after a blob's content
        trailer = false;
        continue;
      }
      if (sink) {
        const take = Math.min(remaining, chunk.length - at);
        sink.write(chunk.subarray(at, at + take));
        at += take;
        remaining -= take;
        if (remaining === 0) finish();
        continue;
      }
      const lf = chunk.indexOf(10, at);
      if (lf < 0) {
        header.push(chunk.subarray(at));
        break;
      }
      header.push(chunk.subarray(at, lf));
      at = lf + 1;
      const line = Buffer.concat(header).toString("utf8");
      header = [];
      entries = byOid.get(order[next++]) ?? [];
      const m = /^\S+ blob (\d+)$/.exec(line);
      if (!m) {
        outcome.failed += entries.length; // "<oid> missing": a partial clone without the object
        continue;
      }
      remaining = Number(m[1]);
      sink = new BlobSink(folders, entries, remaining);
      if (remaining === 0) finish();
    }
  }
  const failure = await git.done;
  if (failure !== null) throw new GitError(`cannot read the repository's files: ${failure}`);
  if (sink !== null || next !== order.length) throw new GitError("cannot read the repository's files: git cat-file stopped early");
  return outcome;
}
