// A revision's files on disk, read from git's objects, never from a checkout: the working tree,
// the index and HEAD are left alone. The loader and the scanner then read the snapshot as they
// read any tree, with the scan cache. A slot (slots.ts) that held another tree is brought to
// this one by writing only the files that differ; one already holding it is used as it is.
//
// The snapshot's top has a `.git` file naming the repository's git directory: it is a git work
// tree to the boundary and ignore rules (its own .gitignore files apply) and to source_links'
// `git remote get-url`, as the repository is.
import fs from "node:fs";
import path from "node:path";
import { FolderMaker, LINK_TOO_LONG, MAX_LINK_TARGET_BYTES, removeEntry, removePath, type Unwritten, writeBlobs } from "./blobs.js";
import type { Repository, Revision } from "./repository.js";
import { takeSlot, writeSlotState } from "./slots.js";
import { listTree, type TreeEntry } from "./tree-entries.js";

/**
 * A blob larger than this is not written: the scanner reads no source file over 256 MiB and the
 * loader no spec over 20 MB, so such a file can hold nothing either side would report.
 */
export const MAX_SNAPSHOT_FILE_BYTES = 256 * 1024 * 1024;

export interface Snapshot {
  /** The folder holding the revision's files (the repository's top). */
  root: string;
  revision: Revision;
  /** Files written by this run (0 when the slot held the tree already). */
  written: number;
  /** Files not written: submodules, unsafe names, over the size cap, refused by the file system. */
  skipped: number;
  /** The links of the revision not written (a NUL byte, too long), by path: a warning each. */
  unwritten: readonly Unwritten[];
  release(): void;
}

const ENTRIES_FILE = "entries";
/** The slot's `Unwritten` entries, JSON: kept with the tree, as the files are. */
const UNWRITTEN_FILE = "unwritten";

function readUnwritten(dir: string): Unwritten[] | null {
  try {
    const kept: unknown = JSON.parse(fs.readFileSync(path.join(dir, UNWRITTEN_FILE), "utf8"));
    if (!Array.isArray(kept)) return null;
    const valid = kept.every((u) => typeof u?.path === "string" && typeof u?.reason === "string");
    return valid ? kept.map((u: Unwritten) => ({ path: u.path, reason: u.reason })) : null;
  } catch {
    return null;
  }
}

const byPath = (a: Unwritten, b: Unwritten) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function serialize(entries: readonly TreeEntry[]): string {
  return entries.map((e) => `${e.mode} ${e.oid} ${e.size}\t${e.path}\0`).join("");
}

function readEntries(dir: string): Map<string, TreeEntry> | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, ENTRIES_FILE), "utf8");
  } catch {
    return null;
  }
  // Records we wrote (serialize): `mode oid size\tpath\0`, read by position rather than by a regular expression per file.
  const map = new Map<string, TreeEntry>();
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\0", at);
    const tab = text.indexOf("\t", at);
    const oidEnd = text.indexOf(" ", at + 7);
    if (end < 0 || tab < 0 || tab > end || oidEnd < 0 || oidEnd > tab || text[at + 6] !== " ") return null;
    const mode = text.slice(at, at + 6);
    const oid = text.slice(at + 7, oidEnd);
    const size = Number(text.slice(oidEnd + 1, tab));
    const p = text.slice(tab + 1, end);
    if (!/^\d{6}$/.test(mode) || !/^[0-9a-f]{40,64}$/.test(oid) || !Number.isSafeInteger(size) || p === "") return null;
    map.set(p, { mode, oid, size, path: p });
    at = end + 1;
  }
  return map;
}

/** The repository's git directory, for `git remote get-url` (source_links) run in the snapshot. */
function writeGitFile(root: string, repo: Repository): void {
  const file = path.join(root, ".git");
  const content = `gitdir: ${repo.gitDir}\n`;
  try {
    if (fs.readFileSync(file, "utf8") === content) return;
  } catch {
    // absent: written below
  }
  removePath(file);
  fs.writeFileSync(file, content, { mode: 0o600, flag: "wx" });
}

const same = (a: TreeEntry | undefined, b: TreeEntry) => a !== undefined && a.mode === b.mode && a.oid === b.oid;

// speky:speky-ts#DIFF-SNAPSHOT
/** The revision's files in a slot of the cache folder, held (locked) until `release`. */
export async function openSnapshot(repo: Repository, revision: Revision): Promise<Snapshot> {
  const slot = await takeSlot(repo.root, revision.tree);
  try {
    const root = path.join(slot.dir, "tree");
    const kept = readUnwritten(slot.dir);
    if (slot.tree === revision.tree && kept !== null && fs.existsSync(root) && fs.existsSync(path.join(slot.dir, ENTRIES_FILE))) {
      // Held already: nothing to list or write (a rerun's snapshot costs a lock and three reads).
      writeGitFile(root, repo);
      writeSlotState(slot.dir, revision.tree, true);
      return { root, revision, written: 0, skipped: 0, unwritten: kept, release: () => slot.release() };
    }
    const listing = await listTree(repo, revision.tree, MAX_SNAPSHOT_FILE_BYTES);
    const entries = new Map(listing.entries.map((e) => [e.path, e]));
    const old = slot.tree !== null && kept !== null && fs.existsSync(root) ? readEntries(slot.dir) : null;
    writeSlotState(slot.dir, revision.tree, false);
    if (old === null) {
      removePath(root);
      fs.mkdirSync(root, { mode: 0o700 });
    } else {
      for (const [p, entry] of old) if (!same(entries.get(p), entry)) removeEntry(root, p);
    }
    // Links refused before: still refused where their entry is the same.
    const unwritten = (old === null ? [] : kept!).filter((u) => {
      const now = entries.get(u.path);
      return now !== undefined && same(old!.get(u.path), now);
    });
    const carried = unwritten.length;
    const byOid = new Map<string, TreeEntry[]>();
    for (const entry of listing.entries) {
      if (old !== null && same(old.get(entry.path), entry)) continue;
      if (entry.mode === "120000" && entry.size > MAX_LINK_TARGET_BYTES) {
        // Not even asked of git: its bytes would only stream by.
        unwritten.push({ path: entry.path, reason: LINK_TOO_LONG });
        continue;
      }
      const list = byOid.get(entry.oid);
      if (list) list.push(entry);
      else byOid.set(entry.oid, [entry]);
    }
    const { written, failed, unwritten: refused } = await writeBlobs(repo, new FolderMaker(root), byOid);
    unwritten.push(...refused);
    unwritten.sort(byPath);
    fs.writeFileSync(path.join(slot.dir, ENTRIES_FILE), serialize(listing.entries), { mode: 0o600 });
    fs.writeFileSync(path.join(slot.dir, UNWRITTEN_FILE), `${JSON.stringify(unwritten)}\n`, { mode: 0o600 });
    writeGitFile(root, repo);
    writeSlotState(slot.dir, revision.tree, true);
    // Refused without asking git: not among `failed`.
    const skipped = listing.skipped + failed + unwritten.length - carried - refused.length;
    return { root, revision, written, skipped, unwritten, release: () => slot.release() };
  } catch (error) {
    slot.release();
    throw error;
  }
}
