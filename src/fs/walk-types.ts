// The shapes a walk (walker.ts, tree-walk.ts) takes and gives, and what it asks of a filter
// plugged in from outside (a scan's cache).
import type { Boundary } from "./boundary.js";
import type { GlobProblem } from "./glob-pattern.js";

export interface GlobOptions {
  /** null: no confinement (--allow-outside, or a path the user gave). */
  boundary: Boundary | null;
  /** Apply .gitignore/.ignore rules inside a git work tree (code sources without --no-ignore). */
  ignore: boolean;
  /**
   * What a pattern naming an existing folder means: "sources" lists the files under it that
   * `keep` accepts (speky's code_sources rule); "none" lists nothing, with a warning (spec files).
   */
  folder: { keep: (absPath: string) => boolean } | null;
}

export interface Reached {
  /** The path as the walk reached it (through links as written). */
  abs: string;
  real: string;
}

export interface GlobOutcome {
  /** In Path order (part by part), each real file once. */
  files: Reached[];
  problems: GlobProblem[];
}

/**
 * A directory's stamp: any entry added, removed or renamed in it changes it. Also of each ignore
 * file read, and of each dangling link met (MISSING_STAMP: its target appearing must show).
 */
export interface DirStamp {
  mtimeMs: number;
  ctimeMs: number;
}

/** The stamp of a path that was not there (a dangling link's target). */
export const MISSING_STAMP: DirStamp = { mtimeMs: -1, ctimeMs: -1 };

/** A walk answered without listing: its files as walked, and the links it went through (path as walked → real path), for their real paths. */
export interface RememberedWalk {
  files: string[];
  links: [abs: string, real: string][];
  /** How many files the walk reaches when `files` holds fewer (a replay's probe needs none): its "matched no file" is then that of a real walk. */
  reached?: number;
}

/** What a walk that listed its folders went by: a filter may vouch for the same walk next time if none of it changed. */
export interface WalkRecord {
  /** The files reached, as walked. */
  files: string[];
  /** The stamp of each folder listed (taken before its listing), ignore file read and dangling link met. */
  dirs: Map<string, DirStamp>;
  /** Path as walked → real path, of each link the walk went through. */
  links: [abs: string, real: string][];
}

/**
 * What a walker asks before each walk and tells after it, as ripgrep's walker takes its
 * filters: the walker holds no cache, the filter (a scan's cache, src/scan/cache) decides.
 * `key` names the walk with its start: its rule, ignore rules and boundary.
 */
export interface WalkFilter {
  /**
   * The walk as remembered, when the filter vouches that nothing it listed changed (then nothing
   * is listed); else null. A promise when telling takes turns of a server's event loop.
   */
  remembered(start: string, key: string): RememberedWalk | null | Promise<RememberedWalk | null>;
  /** A walk that listed, with no problem and nothing a stamp could not tell (a loop of links, a folder not listable). */
  listed(start: string, key: string, record: WalkRecord): void;
}

/** How a GlobWalker walks. */
export interface WalkSetup {
  /** Asked before each walk, told after it (see WalkFilter). */
  filter?: WalkFilter;
  /**
   * Hears each file as the walk reaches it, before the walk is over (a scan starts reading
   * them meanwhile); the outcome's list is what counts.
   */
  onFile?: (file: Reached) => void;
  /** Told as each walk starts, before its first `onFile`: one walk hears each real file once, two may both reach one. */
  onWalk?: () => void;
  /**
   * List folders with readdirSync: for a command line, where nothing else waits on this
   * thread (a slow file system may hold it for one folder's listing).
   */
  blocking?: boolean;
}

/** What one walk keeps: files by a rule, down to a depth. */
export interface Rule {
  /** With the start, the walk's key for a filter. */
  key: string;
  /** The start as the pattern spells it ("" for the root). */
  display: string;
  maxDepth: number;
  /** Keep a file, by its path relative to the walk's start (`/`-separated). */
  keep: (abs: string, relFromStart: string) => boolean;
  /** `keep` reads only `abs`: the walk then builds no relative path per file. */
  absOnly?: boolean;
}

/** A walk being recorded for its filter: the stamps of what it listed, its links. */
export interface Recording {
  dirs: Map<string, DirStamp>;
  links: [abs: string, real: string][];
  /** Every change to what the walk reached would show in a stamp (not so past a loop of links, or a folder not listed). */
  stampsTell: boolean;
}
