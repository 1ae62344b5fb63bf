// What a glob reaches: the one rule for the spec loader (`files`, `comments_csvs`), the
// scanner (`code_sources`, command-line folders) and the live watcher (spec-format.md,
// "Which files code_sources reach" and "Confinement").
//
// - A pattern is matched against the path relative to its root, as Path.glob matches it: `*`
//   and `**` reach dot files and dot folders; `.git` is never walked.
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

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { compareStrings } from "../diagnostics.js";
import { quote } from "../quote.js";
import { Turns } from "../turns.js";
import { ALLOW_HINT, allowed, BOUNDARY_WORDS, type Boundary, isVirtual } from "./boundary.js";
import { IgnoreStack } from "./ignore-rules.js";
import { realOrNull, realOrResolved } from "./paths.js";
import { compileWildcard } from "./wildmatch.js";

/** Never walked nor listed. */
export const GIT_DIR = ".git";

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

export interface GlobProblem {
  severity: "error" | "warning";
  message: string;
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

/** A remembered walk's files, and the links it went through (path as walked → real path), for their real paths. */
export interface RememberedWalk {
  files: string[];
  links: [abs: string, real: string][];
}

/**
 * Walks remembered from a previous run (src/scan/cache/cache.ts): a walk whose listed directories
 * (and ignore files) all kept their stamps lists the same files, without a readdir.
 */
export interface WalkCache {
  lookup(start: string, rule: string): RememberedWalk | null;
  store(start: string, rule: string, files: string[], dirs: Map<string, DirStamp>, links: [abs: string, real: string][]): void;
  /**
   * A dry run (the scan cache's replay probe): `lookup` answers with no files, and tells here
   * how many the remembered walk holds, so that the walk's problems are those of a real run.
   */
  readonly dryRun?: { files: number };
}

/** Python sorts paths part by part: `a/b` comes before `a-c`, unlike as plain strings. */
function compareParts(pa: readonly string[], pb: readonly string[]): number {
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareStrings(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

const join = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);

export interface CompiledGlob {
  /** Leading literal folders, `/`-separated ("" for the root itself). */
  base: string;
  /** The part after the base, matched against paths relative to the base. */
  rest: string;
  /** Deepest file level below the base (1: its own files); Infinity with `**`. */
  maxDepth: number;
  match: (relFromBase: string) => boolean;
  /** Why the pattern may not be walked (too long, too many alternatives): it then matches nothing. */
  refused?: string;
}

const compiled = new Map<string, CompiledGlob | null>();

/** A part with one of these is a wildcard part (or may be: `{a}` and an unclosed `[` match themselves). */
const SPECIAL = /[*?[{\\]/;

// speky:speky-ts#SEC-GLOB-LINEAR
/**
 * null when the pattern has no wildcard (a literal path). Matched by wildmatch.ts, in time
 * bounded by name × pattern (picomatch's regular expressions backtracked for seconds on
 * `src/*a*a*a…b`, issue 25); braces `{a,b}` are expanded, a bounded number of them.
 */
export function compileGlob(pattern: string): CompiledGlob | null {
  let glob = compiled.get(pattern);
  if (glob !== undefined) return glob;
  const normal = pattern.replace(/\/{2,}/g, "/").replace(/^\.\//, "");
  glob = null;
  if (SPECIAL.test(normal)) {
    const parts = normal.split("/");
    let literal = 0;
    while (literal < parts.length - 1 && !SPECIAL.test(parts[literal])) literal++;
    const base = parts.slice(0, literal).join("/");
    const rest = parts.slice(literal).join("/");
    const wildcard = compileWildcard(rest, { braces: true });
    glob =
      "refused" in wildcard
        ? { base, rest, maxDepth: 0, match: () => false, refused: wildcard.refused }
        : { base, rest, maxDepth: wildcard.deep ? Infinity : wildcard.parts, match: wildcard.match };
  }
  compiled.set(pattern, glob);
  return glob;
}

/** Whether the file at `abs` is one of the paths `pattern` (relative to `root`) names, without walking. */
export function patternReaches(root: string, pattern: string, abs: string): boolean {
  const glob = compileGlob(pattern);
  if ((glob ? glob.base : pattern).split("/").includes(GIT_DIR)) return false;
  const base = path.resolve(root, glob ? glob.base : pattern);
  if (!glob) return base === abs;
  const rel = path.relative(base, abs);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
  const parts = rel.split(path.sep);
  if (parts.includes(GIT_DIR) || parts.length > glob.maxDepth) return false;
  return glob.match(parts.join("/"));
}

function statThrough(p: string): Stats | undefined | null {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    // ELOOP and the like: there is something, it can't be followed.
    return null;
  }
}

const isSpecial = (e: Dirent) => e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice();

interface Rule {
  /** With the start, the walk's key in a WalkCache. */
  key: string;
  /** The start as the pattern spells it ("" for the root). */
  display: string;
  maxDepth: number;
  /** Keep a file, by its path relative to the walk's start (`/`-separated). */
  keep: (abs: string, relFromStart: string) => boolean;
  /** `keep` reads only `abs`: the walk then builds no relative path per file. */
  absOnly?: boolean;
}

interface Frame {
  abs: string;
  real: string;
  /** Location for ignore rules: the start's real path, then the names as walked. */
  loc: string;
  rel: string;
  depth: number;
  ignore: IgnoreStack | null;
}

/** Refusal words for a pattern leaving the boundary. */
function outsideMessage(pattern: string, what: string | null): string {
  const via = what === null ? "" : ` through ${quote(what)}, a link`;
  return `${quote(pattern)} reaches outside ${BOUNDARY_WORDS}${via}: nothing there is read (${ALLOW_HINT})`;
}

// speky:speky-ts#WALK-CONFINE
/**
 * Why a pattern may not be walked at all: where it starts is outside the boundary (or in the
 * kernel's virtual file systems). Told without opening anything; null when it may be walked.
 */
export function confinementProblem(root: string, pattern: string, boundary: Boundary | null): GlobProblem | null {
  const glob = compileGlob(pattern);
  if (glob?.refused) return { severity: "error", message: `${quote(pattern)} ${glob.refused}: refused` };
  const start = path.resolve(root, glob ? glob.base : pattern);
  if (isVirtual(start) || isVirtual(realOrResolved(start))) {
    return { severity: "error", message: `${quote(pattern)} names the kernel's virtual files (/proc, /sys, /dev): refused` };
  }
  if (!allowed(boundary, realOrResolved(start))) return { severity: "error", message: outsideMessage(pattern, null) };
  return null;
}

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

// speky:speky-ts#WALK-GLOBS
/**
 * Expands patterns; one per manifest or command line. Directory listings are shared by its
 * walks, and a walk cache (the scan cache) may answer a walk whose folders are unchanged.
 */
export class GlobWalker {
  private readonly listings = new Map<string, Promise<Dirent[] | Unlisted>>();
  private recording: { dirs: Map<string, DirStamp>; links: [abs: string, real: string][]; cacheable: boolean } | null = null;
  private readonly turns = new Turns(true);
  /** How many files the last walk reached (WalkCache.dryRun: more than it returns). */
  private reached = 0;

  /**
   * @param onFile hears each file as the walk reaches it, before the walk is over (a scan
   *   starts reading them meanwhile); the outcome's list is what counts.
   * @param blocking list folders with readdirSync: for a command line, where nothing else
   *   waits on this thread (a slow file system may hold it for one folder's listing).
   */
  constructor(
    private readonly cache?: WalkCache,
    private readonly onFile?: (file: Reached) => void,
    private readonly blocking = false,
  ) {}

  // speky:speky-ts#WALK-NO-BLOCKING
  private async breathe(): Promise<void> {
    await this.turns.maybeTake();
  }

  private stamp(p: string): void {
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
    else recording.cacheable = false;
  }

  /** Starts listing a folder (once per walker); its stamp is taken before the readdir. */
  private prefetch(dir: string): Promise<Dirent[] | Unlisted> {
    let listing = this.listings.get(dir);
    if (!listing) {
      // Before the readdir: a change in between shows as a newer stamp next time.
      this.stamp(dir);
      listing = this.blocking ? listedNow(dir) : readdir(dir, { withFileTypes: true }).then((entries) => entries.sort(byName), unlisted);
      this.listings.set(dir, listing);
    } else if (this.recording && !this.recording.dirs.has(dir)) {
      this.stamp(dir);
    }
    return listing;
  }

  /** A folder's entries; `why` hears why one cannot be listed (not when it vanished meanwhile). */
  private async list(dir: string, why?: (code: string) => void): Promise<Dirent[]> {
    const entries = await this.prefetch(dir);
    if (Array.isArray(entries)) return entries;
    if (this.recording) this.recording.cacheable = false;
    if (!VANISHED.has(entries.unlisted)) why?.(entries.unlisted);
    return [];
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

  /** A walk, from the cache when nothing it listed changed; recorded for the cache otherwise. */
  private async walk(
    start: string,
    startReal: string,
    rule: Rule,
    options: GlobOptions,
    pattern: string,
    problems: GlobProblem[],
  ): Promise<Reached[]> {
    const key = `${rule.key}${options.ignore ? " +ignore" : ""}${options.boundary ? ` in ${options.boundary.roots.join(" | ")}` : ""}`;
    if (!this.cache) {
      const files = await this.walkTree(start, startReal, rule, options, pattern, problems);
      this.reached = files.length;
      return files;
    }
    const cached = this.cache.lookup(start, key);
    if (cached) {
      const realOf = realPaths(start, startReal, cached.links);
      const files = cached.files.map((abs) => ({ abs, real: realOf(abs) }));
      if (this.onFile) files.forEach(this.onFile);
      this.reached = this.cache.dryRun?.files ?? files.length;
      return files;
    }
    this.recording = { dirs: new Map(), links: [], cacheable: true };
    try {
      const files = await this.walkTree(start, startReal, rule, options, pattern, problems);
      this.reached = files.length;
      const { dirs, links, cacheable } = this.recording;
      if (cacheable && problems.length === 0)
        this.cache.store(
          start,
          key,
          files.map((f) => f.abs),
          dirs,
          links,
        );
      return files;
    } finally {
      this.recording = null;
    }
  }

  private async walkTree(
    start: string,
    startReal: string,
    rule: Rule,
    options: GlobOptions,
    pattern: string,
    problems: GlobProblem[],
  ): Promise<Reached[]> {
    /** The start as the pattern spells it, to name a refused link. */
    const display = rule.display;
    const out: Reached[] = [];
    const seenFiles = new Set<string>();
    const enteredDirs = new Set<string>([startReal]);
    const onRuleFile = (file: string) => this.stamp(file);
    const rootIgnore = options.ignore ? IgnoreStack.at(startReal, onRuleFile) : null;
    const refuse = (rel: string) => {
      const message = outsideMessage(pattern, rel);
      if (!problems.some((p) => p.message === message)) problems.push({ severity: "error", message });
    };
    /** `link`: reached through a symbolic link, taken after every path without one. */
    type Item = ({ file: Reached } | { dir: Frame }) & { link: boolean };
    /** What a folder holds for the rule, in name order; its subfolders' listings started. */
    const itemsOf = (frame: Frame, entries: Dirent[]): Item[] => {
      const ignore = frame.ignore?.enter(frame.loc, frame.real, onRuleFile) ?? null;
      const items: Item[] = [];
      for (const entry of entries) {
        const name = entry.name;
        if (name === GIT_DIR || isSpecial(entry)) continue;
        const abs = join(frame.abs, name);
        let isDir = entry.isDirectory();
        let isFile = entry.isFile();
        const link = entry.isSymbolicLink();
        // Built only where used: a tree of 25,000 files made 100,000 strings here.
        const rel = isDir || link || !rule.absOnly ? (frame.rel ? `${frame.rel}/${name}` : name) : "";
        let real = frame.real === frame.abs ? abs : join(frame.real, name);
        if (link) {
          // A link is remembered with the walk: retargeting it changes its folder's stamp, what
          // it leads to has stamps of its own (its folders, its files), and a dangling one is
          // stamped missing, so that its target appearing shows.
          const st = statThrough(abs);
          if (st === undefined) {
            if (this.recording) this.recording.dirs.set(abs, MISSING_STAMP);
            continue;
          }
          if (st === null) {
            // A loop of links may come undone without a stamp telling: never remembered.
            if (this.recording) this.recording.cacheable = false;
            // A loop of links: listed if the pattern wants it, its read says why it fails.
            isFile = true;
            isDir = false;
          } else {
            const target = realOrNull(abs);
            if (target === null) continue;
            if (!allowed(options.boundary, target) || isVirtual(target)) {
              // Refused where the pattern would have gone: a folder within reach, or a name it matches.
              if (st.isDirectory() ? frame.depth < rule.maxDepth : frame.depth <= rule.maxDepth && rule.keep(abs, rel)) {
                refuse(display ? `${display}/${rel}` : rel);
              }
              continue;
            }
            real = target;
            isDir = st.isDirectory();
            isFile = st.isFile();
            this.recording?.links.push([abs, target]);
          }
        }
        if (isFile) {
          if (frame.depth > rule.maxDepth || !rule.keep(abs, rel)) continue;
          if (ignore?.ignores(join(frame.loc, name), false)) continue;
          items.push({ file: { abs, real }, link });
        } else if (isDir) {
          if (frame.depth >= rule.maxDepth || enteredDirs.has(real)) continue;
          const loc = join(frame.loc, name);
          if (ignore?.ignores(loc, true)) continue;
          // Listed ahead, in parallel (the thread pool reads while this thread matches).
          this.prefetch(abs);
          items.push({ dir: { abs, real, loc, rel, depth: frame.depth + 1, ignore }, link });
        }
      }
      return items;
    };
    // Depth first, each folder's entries in name order, descending where met: the files come
    // out in Path order (part by part). What links lead to is taken afterwards, so a file or
    // folder reached both directly and through a link keeps its own path.
    const deferred: Item[] = [];
    /** Past the direct paths: what links lead to is checked against every file met. */
    let linked = false;
    // Without links, each real folder is entered once, so each real file is met once: the
    // set of files met is needed (and built) only for what links lead to.
    const take = async (item: Item): Promise<void> => {
      if ("file" in item) {
        if (seenFiles.has(item.file.real)) return;
        seenFiles.add(item.file.real);
        out.push(item.file);
        this.onFile?.(item.file);
      } else {
        if (enteredDirs.has(item.dir.real)) return;
        enteredDirs.add(item.dir.real);
        await visit(item.dir);
      }
    };
    // speky:speky-ts#SEC-PATH-TOO-LONG
    // A folder that cannot be listed (a path past PATH_MAX: ENAMETOOLONG; EACCES) is a warning
    // of the pattern naming it, and the walk goes on: it was an internal error, or silence.
    const unlistable = (frame: Frame) => (code: string) => {
      const where = display ? `${display}/${frame.rel}` : frame.rel;
      problems.push({
        severity: "warning",
        message: `${quote(pattern)}: cannot list the folder ${quote(where || ".")} (${code}${code === "ENAMETOOLONG" ? ": its path is too long" : ""}); nothing under it is reached`,
      });
    };
    const visit = async (frame: Frame): Promise<void> => {
      const items = itemsOf(frame, await this.list(frame.abs, unlistable(frame)));
      await this.breathe();
      for (const item of items) {
        if (item.link) deferred.push(item);
        else if (linked) await take(item);
        else if ("file" in item) {
          out.push(item.file);
          this.onFile?.(item.file);
        } else if (!enteredDirs.has(item.dir.real)) {
          enteredDirs.add(item.dir.real);
          await visit(item.dir);
        }
      }
    };
    await visit({ abs: start, real: startReal, loc: startReal, rel: "", depth: 1, ignore: rootIgnore });
    const direct = out.length;
    linked = true;
    if (deferred.length > 0) for (const file of out) seenFiles.add(file.real);
    for (let i = 0; i < deferred.length; i++) {
      const item = deferred[i];
      deferred[i] = undefined as unknown as Item; // let it go: a big tree defers many
      await take(item);
    }
    if (out.length === direct) return out;
    const keyed = out.map((file) => ({ file, parts: file.abs.split(path.sep) }));
    keyed.sort((a, b) => compareParts(a.parts, b.parts));
    return keyed.map((k) => k.file);
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

/** All of one pattern's files, or its problems: the convenience form for a single expansion. */
export function expandGlob(root: string, pattern: string, options: GlobOptions, cache?: WalkCache): Promise<GlobOutcome> {
  return new GlobWalker(cache).expand(root, pattern, options);
}
