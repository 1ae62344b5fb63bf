// The walker of what a glob reaches (the pattern's rule is glob-pattern.ts; one walk is
// tree-walk.ts):
//
// - Symbolic links are followed. Each real folder is entered once per walk (a cycle, or two
//   links to one folder, costs one readdir: the walk is linear in the real tree) and each real
//   file is listed once: under its path without links when the walk reaches it so, else under
//   the first path (in name order) through a link.
// - FIFOs, sockets and devices are never listed (so never opened).
// - With a boundary, nothing outside it is listed or entered: a pattern or a link that leaves
//   it is an error of the pattern; /proc, /sys and /dev are refused even without one.
// - Code sources (ignore: true) skip what .gitignore and .ignore rules exclude inside a git
//   work tree; spec files and CSVs never do.
// - Walks are async: in a server, folders are listed by the thread pool, several at a time (the
//   subfolders of the folder being matched), and the walk yields to the event loop at least
//   every few milliseconds, so a running MCP server keeps answering while it walks a huge tree.
//   A command line lists them on its own thread (`blocking`), for half the CPU.
// - A filter plugged in from outside (WalkFilter: a scan's cache) may answer a walk whose
//   folders it vouches for, with no folder listed; a walk that listed is told to it.

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { compareStrings } from "../diagnostics.js";
import { quote } from "../quote.js";
import { Turns } from "../turns.js";
import { compileGlob, confinementProblem, GIT_DIR, type GlobProblem } from "./glob-pattern.js";
import { realOrNull, statThrough } from "./paths.js";
import { filesReached, type Lister } from "./tree-walk.js";
import type { GlobOptions, GlobOutcome, Reached, Recording, Rule, WalkSetup } from "./walk-types.js";

const byName = (a: Dirent, b: Dirent) => compareStrings(a.name, b.name);

/**
 * A folder listed on this thread. The thread pool's listings cost twice the CPU (a walk of
 * the bench tree: 230-270 ms against 100-130 ms), which a command line walking alone does not
 * win back; a server keeps the async ones (see `blocking`).
 */
function listedNow(dir: string): Promise<Dirent[] | Unlisted> {
  try {
    return Promise.resolve(readdirSync(dir, { withFileTypes: true }).sort(byName));
  } catch (error) {
    return Promise.resolve(unlisted(error));
  }
}

/** A folder that could not be listed, and why (an errno code). */
interface Unlisted {
  unlisted: string;
}
const unlisted = (error: unknown): Unlisted => ({ unlisted: (error as NodeJS.ErrnoException).code ?? "error" });
/** Folders gone between a listing and this one: nothing to say. */
const VANISHED = new Set(["ENOENT", "ENOTDIR"]);

/**
 * Entries of the listings a walker keeps for its later walks (two patterns over one folder
 * list it once); past them, a listing is let go once taken. A cold scan of 1,000,000 small
 * files, paired against keeping every listing (peak RSS, 2-4 rounds each): Node 20 574-587 →
 * 566-570 MB, Node 22 596 → 512, Node 24 634-675 → 591-618 (10,000 instead: the same).
 */
const KEPT_ENTRIES = 100_000;

// speky:speky-ts#WALK-GLOBS
/**
 * Expands patterns; one per manifest or command line. Directory listings are shared by its
 * walks (up to KEPT_ENTRIES entries), and a filter (the scan cache) may answer a walk whose
 * folders are unchanged.
 */
export class GlobWalker implements Lister {
  private readonly listings = new Map<string, Promise<Dirent[] | Unlisted>>();
  /** Entries of the listings taken so far (see KEPT_ENTRIES). */
  private taken = 0;
  recording: Recording | null = null;
  private readonly turns = new Turns(true);
  /** How many files the last walk reached (RememberedWalk.reached: more than it returns). */
  private reached = 0;

  constructor(private readonly setup: WalkSetup = {}) {}

  // speky:speky-ts#WALK-NO-BLOCKING
  async breathe(): Promise<void> {
    await this.turns.maybeTake();
  }

  stamp(p: string): void {
    const recording = this.recording;
    if (!recording) return;
    let st: Stats | undefined;
    try {
      st = statSync(p, { throwIfNoEntry: false });
    } catch {
      // ENAMETOOLONG (a path past PATH_MAX), ELOOP: not a walk to remember.
      st = undefined;
    }
    if (st) recording.dirs.set(p, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
    else recording.stampsTell = false;
  }

  /** Starts listing a folder (once per walker while its listing is kept); its stamp is taken before the readdir. */
  prefetch(dir: string): Promise<Dirent[] | Unlisted> {
    let listing = this.listings.get(dir);
    if (!listing) {
      // Before the readdir: a change in between shows as a newer stamp next time.
      this.stamp(dir);
      listing = this.setup.blocking
        ? listedNow(dir)
        : readdir(dir, { withFileTypes: true }).then((entries) => entries.sort(byName), unlisted);
      this.listings.set(dir, listing);
    } else if (this.recording && !this.recording.dirs.has(dir)) {
      this.stamp(dir);
    }
    return listing;
  }

  /** A folder's entries; `why` hears why one cannot be listed (not when it vanished meanwhile). */
  async list(dir: string, why?: (code: string) => void): Promise<Dirent[]> {
    const entries = await this.prefetch(dir);
    if (!Array.isArray(entries)) {
      if (this.recording) this.recording.stampsTell = false;
      if (!VANISHED.has(entries.unlisted)) why?.(entries.unlisted);
      return [];
    }
    // Kept for a later walk of the same folder while they are few: a walk of a million files
    // held every folder's entries to its end.
    if ((this.taken += entries.length) > KEPT_ENTRIES) this.listings.delete(dir);
    return entries;
  }

  /** What one pattern reaches from `root`. */
  async expand(root: string, pattern: string, options: GlobOptions): Promise<GlobOutcome> {
    const problems: GlobProblem[] = [];
    const glob = compileGlob(pattern);
    const literal = path.resolve(root, glob ? glob.base : pattern);
    const refused = confinementProblem(root, pattern, options.boundary);
    if (refused) return { files: [], problems: [refused] };
    const real = realOrNull(literal);
    let files: Reached[] = [];
    let reached = 0;
    if ((glob ? glob.base : pattern).split("/").includes(GIT_DIR)) {
      // `.git` is never walked, nor read, whatever names it.
      return { files: [], problems: [{ severity: "warning", message: `${quote(pattern)} matched no file (.git is never walked)` }] };
    }
    if (!glob) {
      const st = statThrough(literal);
      if (st?.isFile()) {
        files = [{ abs: literal, real: real ?? literal }];
        reached = 1;
      } else if (st?.isDirectory() && options.folder) {
        files = await this.walk(
          literal,
          real!,
          { key: "folder", display: pattern.replace(/\/+$/, ""), maxDepth: Infinity, keep: options.folder.keep, absOnly: true },
          options,
          pattern,
          problems,
        );
        reached = this.reached;
      } else if (st?.isDirectory()) {
        const name = pattern.replace(/\/+$/, "");
        problems.push({
          severity: "warning",
          message: `${quote(pattern)} is a directory; name its files, e.g. ${quote(`${name}/*.yaml`)}`,
        });
        return { files: [], problems };
      } else if (!options.folder) {
        // A spec file named outright must be there (speky fails too).
        return { files: [], problems: [{ severity: "error", message: `file ${quote(pattern)} not found` }] };
      }
    } else if (real === null || !statThrough(real)?.isDirectory()) {
      if (!options.folder) {
        return {
          files: [],
          problems: [{ severity: "error", message: `directory ${quote(glob.base || ".")} not found (in the glob ${quote(pattern)})` }],
        };
      }
    } else {
      const rule: Rule = { key: `glob ${glob.rest}`, display: glob.base, maxDepth: glob.maxDepth, keep: (_abs, rel) => glob.match(rel) };
      files = await this.walk(literal, real, rule, options, pattern, problems);
      reached = this.reached;
    }
    if (reached === 0 && !problems.some((p) => p.severity === "error")) {
      problems.push({ severity: "warning", message: `${quote(pattern)} matched no file` });
    }
    return { files, problems };
  }

  /** The files under a folder given on the command line that `keep` accepts. */
  async folder(dir: string, display: string, keep: (abs: string) => boolean, options: Omit<GlobOptions, "folder">): Promise<GlobOutcome> {
    const problems: GlobProblem[] = [];
    const real = realOrNull(dir);
    if (real === null) return { files: [], problems };
    const files = await this.walk(
      dir,
      real,
      { key: "folder", display, maxDepth: Infinity, keep },
      { ...options, folder: null },
      display,
      problems,
    );
    return { files, problems };
  }

  /** A walk, answered by the filter when it vouches for it; recorded for the filter otherwise. */
  private async walk(
    start: string,
    startReal: string,
    rule: Rule,
    options: GlobOptions,
    pattern: string,
    problems: GlobProblem[],
  ): Promise<Reached[]> {
    const { filter, onFile } = this.setup;
    this.setup.onWalk?.();
    const key = `${rule.key}${options.ignore ? " +ignore" : ""}${options.boundary ? ` in ${options.boundary.roots.join(" | ")}` : ""}`;
    const remembered = await filter?.remembered(start, key);
    if (remembered) {
      const realOf = realPaths(start, startReal, remembered.links);
      const files = remembered.files.map((abs) => ({ abs, real: realOf(abs) }));
      if (onFile) files.forEach(onFile);
      this.reached = remembered.reached ?? files.length;
      return files;
    }
    this.recording = filter ? { dirs: new Map(), links: [], stampsTell: true } : null;
    try {
      const files = await filesReached(this, start, startReal, rule, options, pattern, problems, onFile);
      this.reached = files.length;
      if (filter && this.recording) {
        const { dirs, links, stampsTell } = this.recording;
        if (stampsTell && problems.length === 0) filter.listed(start, key, { files: files.map((f) => f.abs), dirs, links });
      }
      return files;
    } finally {
      this.recording = null;
    }
  }
}

/**
 * A remembered file's real path: through the longest link it was reached under, else from the
 * walk's start (a walk without links: the start's real path and the rest as walked).
 */
function realPaths(start: string, startReal: string, links: [abs: string, real: string][]): (abs: string) => string {
  const plain = (abs: string) => (start === startReal ? abs : startReal + abs.slice(start.length));
  if (links.length === 0) return plain;
  const byLength = [...links].sort((a, b) => b[0].length - a[0].length);
  return (abs) => {
    for (const [linkAbs, linkReal] of byLength) {
      if (abs === linkAbs) return linkReal;
      if (abs.startsWith(linkAbs) && abs[linkAbs.length] === path.sep) return linkReal + abs.slice(linkAbs.length);
    }
    return plain(abs);
  };
}
