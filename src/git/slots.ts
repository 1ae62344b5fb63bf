// Where snapshots of a repository's revisions live: a few slots per repository under the cache
// folder ($SPEKY_CACHE_DIR/diff-trees/<repository>/<n>/), each holding one tree, updated in
// place from one revision to the next (only the files that differ are written, and the scan
// cache's stamps of the others stay valid). A slot is held by one run at a time (a lock file
// with its process id; a dead process's lock is taken over), so two diffs at once, or the two
// sides of one, never write the same folder.
import { createHash } from "node:crypto";
import fs, { readFileSync } from "node:fs";
import path from "node:path";
import { cacheDir } from "../fs/cache-dir.js";
import { notOurs, prepareCacheDir } from "../fs/cache-trust.js";
import { GitError } from "./git-error.js";

/** Slots per repository: a base, a head, and room for runs at the same time. */
export const MAX_SLOTS = 4;
/** How long a run waits for a slot when every one is held, before it gives up. */
const WAIT_MS = 120_000;
const POLL_MS = 100;
/** A repository's snapshots unused this long are removed (at the next diff of any repository). */
// (Each slot's state file is rewritten at every use: its time is the slot's last use.)
const UNUSED_DAYS = 30;

export interface Slot {
  dir: string;
  /** The tree the slot holds when it is complete; null when empty or half written. */
  tree: string | null;
  release(): void;
}

/** Slots this process holds (a lock naming our own pid is ours only if it is here). */
const held = new Set<string>();

/** This boot of the machine (Linux), so that a lock left in a cache folder carried to another machine or boot is not believed. */
function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
}

/** A lock older than this is taken over whatever it says: no run holds a slot that long. */
const LOCK_MAX_AGE_MS = 3_600_000;

const lockText = () => `${process.pid} ${bootId()}\n`;

/** Whether the lock file names a run that may still hold it. */
function lockHeld(lock: string): boolean {
  let text: string;
  let age: number;
  try {
    text = readFileSync(lock, "utf8");
    age = Date.now() - fs.statSync(lock).mtimeMs;
  } catch {
    return false;
  }
  const [pidText, boot = ""] = text.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || age > LOCK_MAX_AGE_MS || boot !== bootId()) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the slot's lock; false when another run holds it. */
function tryLock(dir: string): boolean {
  if (held.has(dir)) return false;
  const lock = path.join(dir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(
        lock,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
        0o600,
      );
      fs.writeSync(fd, lockText());
      fs.closeSync(fd);
      held.add(dir);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A run that died holding it, on this boot or another (or a half-written lock file): taken over.
      if (lockHeld(lock)) return false;
      fs.rmSync(lock, { force: true });
    }
  }
  return false;
}

/** The tree a slot holds, from its state file; null when it is not complete. */
export function slotTree(dir: string): string | null {
  try {
    const state = JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { tree?: unknown; complete?: unknown };
    return state.complete === true && typeof state.tree === "string" && /^[0-9a-f]{40,64}$/.test(state.tree) ? state.tree : null;
  } catch {
    return null;
  }
}

export function writeSlotState(dir: string, tree: string, complete: boolean): void {
  const file = path.join(dir, "state.json");
  const temp = `${file}.${process.pid}`;
  fs.writeFileSync(temp, `${JSON.stringify({ tree, complete })}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

function lastUse(dir: string): number {
  try {
    return fs.statSync(path.join(dir, "state.json")).mtimeMs;
  } catch {
    return 0;
  }
}

/** The folder of a repository's slots, made private; throws when the cache folder is not ours. */
function repositoryFolder(repositoryRoot: string): string {
  const base = path.join(cacheDir(), "diff-trees");
  const why = prepareCacheDir(cacheDir(), true) ?? prepareCacheDir(base, true);
  if (why !== null) throw new GitError(`cannot keep snapshots of the revisions: ${why}`);
  const dir = path.join(base, createHash("sha256").update(repositoryRoot).digest("hex").slice(0, 24));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const problem = stat.isDirectory() ? notOurs(stat, "the snapshot folder") : "the snapshot folder is not a directory";
  if (problem !== null) throw new GitError(`cannot keep snapshots of the revisions: ${problem}`);
  pruneUnused(base, dir);
  return dir;
}

/** Removes other repositories' snapshots unused for UNUSED_DAYS (none of their slots locked). */
function pruneUnused(base: string, keep: string): void {
  const cutoff = Date.now() - UNUSED_DAYS * 86_400_000;
  for (const name of fs.readdirSync(base)) {
    const dir = path.join(base, name);
    if (dir === keep || !/^[0-9a-f]{24}$/.test(name)) continue;
    let slots: string[];
    try {
      slots = fs.readdirSync(dir).map((s) => path.join(dir, s));
    } catch {
      continue;
    }
    if (slots.some((s) => lastUse(s) > cutoff || fs.existsSync(path.join(s, "lock")))) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function open(dir: string): Slot {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    dir,
    tree: slotTree(dir),
    release() {
      held.delete(dir);
      fs.rmSync(path.join(dir, "lock"), { force: true });
    },
  };
}

// speky:speky-ts#DIFF-SNAPSHOT
/**
 * A slot of the repository to hold `tree`, locked: the one holding it already if free, else
 * the least recently used free one (or a new one), waiting for one when all are held.
 */
export async function takeSlot(repositoryRoot: string, tree: string): Promise<Slot> {
  const root = repositoryFolder(repositoryRoot);
  const started = Date.now();
  for (;;) {
    const dirs = Array.from({ length: MAX_SLOTS }, (_, i) => path.join(root, String(i)));
    const existing = dirs.filter((d) => fs.existsSync(d));
    // A slot holding another tree is updated in place (only the files that differ are
    // written): cheaper, and less disk, than a new slot, which is made only when all are held.
    const ranked = [
      ...existing.filter((d) => slotTree(d) === tree),
      ...existing.filter((d) => slotTree(d) !== tree).sort((a, b) => lastUse(a) - lastUse(b)),
      ...dirs.filter((d) => !existing.includes(d)),
    ];
    for (const dir of ranked) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (tryLock(dir)) return open(dir);
    }
    if (Date.now() - started > WAIT_MS) {
      throw new GitError(`every snapshot slot of this repository is in use by another speky diff (waited ${WAIT_MS / 1000} s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
