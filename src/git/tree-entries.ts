// The files of a git tree, from `git ls-tree -r -z -l --full-tree TREE`: one NUL-terminated
// record per file, read as a stream (a tree of a million files is a million records, never one
// string). Tree objects are repository data: a name that could leave the folder it is written
// into (`..`, an absolute path, `.git` in any case) is never taken.

import { GitError } from "./git-error.js";
import type { Repository } from "./repository.js";
import { streamGit } from "./run-git.js";

export interface TreeEntry {
  /** `/`-separated, relative to the tree's top. */
  path: string;
  /** "100644", "100755" or "120000" (a symbolic link). */
  mode: string;
  oid: string;
  size: number;
}

export interface TreeListing {
  entries: TreeEntry[];
  /** Records not taken: submodules, unsafe names, files over the size cap. */
  skipped: number;
}

/** Each part of a path as git may write it, and only such. */
export function safeTreePath(p: string): boolean {
  if (p.length === 0 || p.length > 4096 || p.startsWith("/")) return false;
  for (const part of p.split("/")) {
    if (part === "" || part === "." || part === ".." || part.toLowerCase() === ".git") return false;
    if (part.length > 255) return false;
  }
  return !p.includes("\0");
}

const RECORD = /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(\d+|-)\t([\s\S]*)$/;

/** Parses one record; null for anything not a safe file or link. */
function parseRecord(record: string, maxFileBytes: number): TreeEntry | null {
  const m = RECORD.exec(record);
  if (!m) return null;
  const [, mode, type, oid, size, p] = m;
  if (type !== "blob" || (mode !== "100644" && mode !== "100755" && mode !== "120000")) return null;
  const bytes = Number(size);
  if (!Number.isFinite(bytes) || bytes > maxFileBytes || !safeTreePath(p)) return null;
  return { path: p, mode, oid, size: bytes };
}

// speky:speky-ts#DIFF-SNAPSHOT
/** Every file of `tree`, in git's order. */
export async function listTree(repo: Repository, tree: string, maxFileBytes: number): Promise<TreeListing> {
  const git = streamGit(repo.root, ["ls-tree", "-r", "-z", "-l", "--full-tree", tree]);
  git.child.stdin.end();
  const entries: TreeEntry[] = [];
  let skipped = 0;
  let rest = Buffer.alloc(0);
  for await (const chunk of git.child.stdout as AsyncIterable<Buffer>) {
    const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(0, start); end >= 0; end = data.indexOf(0, start)) {
      const raw = data.subarray(start, end);
      const text = raw.toString("utf8");
      // A name that is not UTF-8 could not be written back byte for byte: not taken.
      const entry = text.includes("\ufffd") && !Buffer.from(text, "utf8").equals(raw) ? null : parseRecord(text, maxFileBytes);
      if (entry) entries.push(entry);
      else skipped++;
      start = end + 1;
    }
    rest = Buffer.from(data.subarray(start));
  }
  const failure = await git.done;
  if (failure !== null) throw new GitError(`cannot list the files of tree ${tree}: ${failure}`);
  const consistent = withoutClashes(entries);
  return { entries: consistent, skipped: skipped + entries.length - consistent.length };
}

/**
 * The entries without those whose path is also a folder of another entry (`a` and `a/x`, or the
 * same path twice): only a malformed tree has them, and which one would win on disk is not
 * something the diff may depend on.
 */
function withoutClashes(entries: TreeEntry[]): TreeEntry[] {
  const files = new Map<string, number>();
  for (const e of entries) files.set(e.path, (files.get(e.path) ?? 0) + 1);
  const clashing = new Set<string>();
  for (const e of entries) {
    if (files.get(e.path)! > 1) clashing.add(e.path);
    for (let cut = e.path.indexOf("/"); cut >= 0; cut = e.path.indexOf("/", cut + 1)) {
      const folder = e.path.slice(0, cut);
      if (files.has(folder)) {
        clashing.add(folder);
        clashing.add(e.path);
      }
    }
  }
  return clashing.size === 0 ? entries : entries.filter((e) => !clashing.has(e.path));
}
