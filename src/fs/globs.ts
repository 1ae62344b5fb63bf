// What a glob reaches: the one rule for the spec loader (`files`, `comments_csvs`), the
// scanner (`code_sources`, command-line folders) and the live watcher (spec-format.md,
// "Which files code_sources reach" and "Confinement").
//
// - A pattern is matched against the path relative to its root, as Path.glob matches it: `*`
//   and `**` reach dot files and dot folders; `.git` is never walked.
// - Symbolic links are followed. Each real folder is entered once per walk (a cycle, or two
//   links to one folder, costs one readdir: the walk is linear in the real tree) and each real
//   file is listed once, under the path the walk (depth first, in name order) reached it by.
// - FIFOs, sockets and devices are never listed (so never opened).
// - With a boundary, nothing outside it is listed or entered: a pattern or a link that leaves
//   it is an error of the pattern; /proc, /sys and /dev are refused even without one.
// - Code sources (ignore: true) skip what .gitignore and .ignore rules exclude inside a git
//   work tree; spec files and CSVs never do.
// - Walks are async and yield to the event loop every few milliseconds: a running MCP server
//   keeps answering while it walks a huge tree.
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { compareStrings } from "../diagnostics.js";
import { ALLOW_HINT, allowed, BOUNDARY_WORDS, isVirtual, realOrResolved, type Boundary } from "./boundary.js";
import { IgnoreStack } from "./ignore-rules.js";

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

/** A directory's stamp: any entry added, removed or renamed in it changes it. */
export interface DirStamp {
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * Walks remembered from a previous run (src/scan/cache.ts): a walk whose listed directories
 * (and ignore files) all kept their stamps lists the same files, without a readdir.
 */
export interface WalkCache {
  lookup(start: string, rule: string): string[] | null;
  store(start: string, rule: string, files: string[], dirs: Map<string, DirStamp>): void;
}

/** Python sorts paths part by part: `a/b` comes before `a-c`, unlike as plain strings. */
export function comparePaths(a: string, b: string): number {
  const pa = a.split(path.sep);
  const pb = b.split(path.sep);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareStrings(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

const toPosix = (p: string) => (path.sep === "/" ? p : p.split(path.sep).join("/"));
const join = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);

export interface CompiledGlob {
  /** Leading literal folders, `/`-separated ("" for the root itself). */
  base: string;
  /** The part after the base, matched against paths relative to the base. */
  rest: string;
  /** Deepest file level below the base (1: its own files); Infinity with `**`. */
  maxDepth: number;
  match: (relFromBase: string) => boolean;
}

const compiled = new Map<string, CompiledGlob | null>();

/** null when the pattern has no wildcard (a literal path). */
export function compileGlob(pattern: string): CompiledGlob | null {
  let glob = compiled.get(pattern);
  if (glob !== undefined) return glob;
  const normal = pattern.replace(/\/{2,}/g, "/").replace(/^\.\//, "");
  // Path.glob has no negation: a leading `!` is a plain character.
  const scanned = picomatch.scan(normal, { nonegate: true });
  glob = null;
  if (scanned.isGlob) {
    const base = scanned.base === "." ? "" : scanned.base;
    const rest = scanned.glob;
    // dot: Path.glob's `*` and `**` reach dot entries.
    const isMatch = picomatch(rest, { dot: true, nonegate: true });
    glob = { base, rest, maxDepth: rest.includes("**") ? Infinity : rest.split("/").length, match: isMatch };
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

function realpathOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
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

/** Milliseconds a walk may hold the event loop before it yields. */
const SLICE_MS = 8;

/** Refusal words for a pattern leaving the boundary. */
function outsideMessage(pattern: string, what: string | null): string {
  const via = what === null ? "" : ` through '${what}', a link`;
  return `'${pattern}' reaches outside ${BOUNDARY_WORDS}${via}: nothing there is read (${ALLOW_HINT})`;
}

// speky:speky-ts#WALK-CONFINE
/**
 * Why a pattern may not be walked at all: where it starts is outside the boundary (or in the
 * kernel's virtual file systems). Told without opening anything; null when it may be walked.
 */
export function confinementProblem(root: string, pattern: string, boundary: Boundary | null): GlobProblem | null {
  const glob = compileGlob(pattern);
  const start = path.resolve(root, glob ? glob.base : pattern);
  if (isVirtual(start) || isVirtual(realOrResolved(start))) {
    return { severity: "error", message: `'${pattern}' names the kernel's virtual files (/proc, /sys, /dev): refused` };
  }
  if (!allowed(boundary, realOrResolved(start))) return { severity: "error", message: outsideMessage(pattern, null) };
  return null;
}

// speky:speky-ts#WALK-GLOBS
/**
 * Expands patterns; one per manifest or command line. Directory listings are shared by its
 * walks, and a walk cache (the scan cache) may answer a walk whose folders are unchanged.
 */
export class GlobWalker {
  private readonly listings = new Map<string, Dirent[]>();
  private recording: { dirs: Map<string, DirStamp>; cacheable: boolean } | null = null;
  private lastYield = performance.now();

  constructor(private readonly cache?: WalkCache) {}

  // speky:speky-ts#WALK-NO-BLOCKING
  private async breathe(): Promise<void> {
    if (performance.now() - this.lastYield < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }

  private stamp(p: string): void {
    const recording = this.recording;
    if (!recording) return;
    const st = statSync(p, { throwIfNoEntry: false });
    if (st) recording.dirs.set(p, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
    else recording.cacheable = false;
  }

  private list(dir: string): Dirent[] {
    // Before the readdir: a change in between shows as a newer stamp next time.
    this.stamp(dir);
    let entries = this.listings.get(dir);
    if (!entries) {
      try {
        entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareStrings(a.name, b.name));
      } catch {
        entries = [];
        if (this.recording) this.recording.cacheable = false;
      }
      this.listings.set(dir, entries);
    }
    return entries;
  }

  /** What one pattern reaches from `root`. */
  async expand(root: string, pattern: string, options: GlobOptions): Promise<GlobOutcome> {
    const problems: GlobProblem[] = [];
    const glob = compileGlob(pattern);
    const literal = path.resolve(root, glob ? glob.base : pattern);
    const refused = confinementProblem(root, pattern, options.boundary);
    if (refused) return { files: [], problems: [refused] };
    const real = realpathOrNull(literal);
    let files: Reached[];
    if ((glob ? glob.base : pattern).split("/").includes(GIT_DIR)) {
      // `.git` is never walked, nor read, whatever names it.
      return { files: [], problems: [{ severity: "warning", message: `'${pattern}' matched no file (.git is never walked)` }] };
    }
    if (!glob) {
      const st = statThrough(literal);
      if (st?.isFile()) files = [{ abs: literal, real: real ?? literal }];
      else if (st?.isDirectory() && options.folder) {
        files = await this.walk(literal, real!, { key: "folder", display: pattern.replace(/\/+$/, ""), maxDepth: Infinity, keep: options.folder.keep }, options, pattern, problems);
      } else if (st?.isDirectory()) {
        const name = pattern.replace(/\/+$/, "");
        problems.push({ severity: "warning", message: `'${pattern}' is a directory; name its files, e.g. '${name}/*.yaml'` });
        return { files: [], problems };
      } else if (!options.folder) {
        // A spec file named outright must be there (speky fails too).
        return { files: [], problems: [{ severity: "error", message: `file '${pattern}' not found` }] };
      } else files = [];
    } else if (real === null || !statThrough(real)?.isDirectory()) {
      if (!options.folder) {
        return { files: [], problems: [{ severity: "error", message: `directory '${glob.base || "."}' not found (in the glob '${pattern}')` }] };
      }
      files = [];
    } else {
      const rule: Rule = { key: `glob ${glob.rest}`, display: glob.base, maxDepth: glob.maxDepth, keep: (_abs, rel) => glob.match(rel) };
      files = await this.walk(literal, real, rule, options, pattern, problems);
    }
    if (files.length === 0 && !problems.some((p) => p.severity === "error")) {
      problems.push({ severity: "warning", message: `'${pattern}' matched no file` });
    }
    return { files, problems };
  }

  /** The files under a folder given on the command line that `keep` accepts. */
  async folder(dir: string, display: string, keep: (abs: string) => boolean, options: Omit<GlobOptions, "folder">): Promise<GlobOutcome> {
    const problems: GlobProblem[] = [];
    const real = realpathOrNull(dir);
    if (real === null) return { files: [], problems };
    const files = await this.walk(dir, real, { key: "folder", display, maxDepth: Infinity, keep }, { ...options, folder: null }, display, problems);
    return { files, problems };
  }

  /** A walk, from the cache when nothing it listed changed; recorded for the cache otherwise. */
  private async walk(start: string, startReal: string, rule: Rule, options: GlobOptions, pattern: string, problems: GlobProblem[]): Promise<Reached[]> {
    const key = `${rule.key}${options.ignore ? " +ignore" : ""}${options.boundary ? ` in ${options.boundary.roots.join("\0")}` : ""}`;
    if (!this.cache) return this.walkTree(start, startReal, rule, options, pattern, problems);
    const cached = this.cache.lookup(start, key);
    if (cached) {
      // Only walks without links are stored: real paths follow from the start's.
      return cached.map((abs) => ({ abs, real: startReal + abs.slice(start.length) }));
    }
    this.recording = { dirs: new Map(), cacheable: true };
    try {
      const files = await this.walkTree(start, startReal, rule, options, pattern, problems);
      const { dirs, cacheable } = this.recording;
      if (cacheable && problems.length === 0) this.cache.store(start, key, files.map((f) => f.abs), dirs);
      return files;
    } finally {
      this.recording = null;
    }
  }

  private async walkTree(start: string, startReal: string, rule: Rule, options: GlobOptions, pattern: string, problems: GlobProblem[]): Promise<Reached[]> {
    /** The start as the pattern spells it, to name a refused link. */
    const display = rule.display;
    const out: Reached[] = [];
    const seenFiles = new Set<string>();
    const enteredDirs = new Set<string>();
    const onRuleFile = (file: string) => this.stamp(file);
    const rootIgnore = options.ignore ? IgnoreStack.at(startReal, onRuleFile) : null;
    const stack: Frame[] = [{ abs: start, real: startReal, loc: startReal, rel: "", depth: 1, ignore: rootIgnore }];
    enteredDirs.add(startReal);
    const refuse = (rel: string) => {
      const message = outsideMessage(pattern, rel);
      if (!problems.some((p) => p.message === message)) problems.push({ severity: "error", message });
    };
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const ignore = frame.ignore?.enter(frame.loc, frame.real, onRuleFile) ?? null;
      const children: Frame[] = [];
      for (const entry of this.list(frame.abs)) {
        const name = entry.name;
        if (name === GIT_DIR || isSpecial(entry)) continue;
        const abs = join(frame.abs, name);
        const loc = join(frame.loc, name);
        const rel = frame.rel ? `${frame.rel}/${name}` : name;
        let isDir = entry.isDirectory();
        let isFile = entry.isFile();
        let real = join(frame.real, name);
        if (entry.isSymbolicLink()) {
          // A link may point anywhere, and may come to point elsewhere: never cached.
          if (this.recording) this.recording.cacheable = false;
          const st = statThrough(abs);
          if (st === undefined) continue; // dangling
          if (st === null) {
            // A loop of links: listed if the pattern wants it, its read says why it fails.
            isFile = true;
            isDir = false;
          } else {
            const target = realpathOrNull(abs);
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
          }
        }
        if (isFile) {
          if (frame.depth > rule.maxDepth || !rule.keep(abs, rel)) continue;
          if (ignore?.ignores(loc, false)) continue;
          if (seenFiles.has(real)) continue;
          seenFiles.add(real);
          out.push({ abs, real });
        } else if (isDir) {
          if (frame.depth >= rule.maxDepth || enteredDirs.has(real)) continue;
          if (ignore?.ignores(loc, true)) continue;
          enteredDirs.add(real);
          children.push({ abs, real, loc, rel, depth: frame.depth + 1, ignore });
        }
      }
      // Depth first, in name order: which path reaches a folder reached several ways is fixed.
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      await this.breathe();
    }
    return out.sort((a, b) => comparePaths(a.abs, b.abs));
  }
}

/** All of one pattern's files, or its problems: the convenience form for a single expansion. */
export function expandGlob(root: string, pattern: string, options: GlobOptions, cache?: WalkCache): Promise<GlobOutcome> {
  return new GlobWalker(cache).expand(root, pattern, options);
}
