// `speky scan`: files of the targets → code references and diagnostics, attributed to the
// target whose project each tag names.
//
// The pipeline, a folder per stage: walk/ (each real file once) → when every stamp is equal
// since the cache was written, the cached results of the tagged files (cache/ replay); else per
// file (read/read-jobs.ts) the cache or a read with a byte-level prefilter and, for the files
// holding the marker, a parse by engine/ (pure: text in, tags out), in a worker pool when it pays
// (read/pool.ts) → merge in file order, so the output is the same however it ran.

import path from "node:path";
import { nowMs } from "../clock.js";
import { compareDiagnostics, compareStrings, type Diagnostic, locatedAt } from "../diagnostics.js";
import { toPosix, withTrailingSep } from "../fs/paths.js";
import type { ScanCache } from "./cache/cache.js";
import { saveLater } from "./cache/cache-save.js";
import type { FileOutline } from "./engine/spans.js";
import type { RawTag } from "./engine/tag.js";
import { NearMisses } from "./near-miss.js";
import type { PathScanOptions, ScanOptions } from "./options.js";
import type { Outcome, Reading } from "./read/read-jobs.js";
import { trace } from "./trace.js";
import type { CodeReference, ScanResult, ScanTarget } from "./types.js";
import { expandPaths, expandTargets, expandTargetsFor, type FileJobs, type WalkSetup } from "./walk/walk.js";

export { cacheWritten } from "./cache/cache-save.js";
export type { PathScanOptions, ScanOptions } from "./options.js";

function displayPath(target: ScanTarget, absPath: string): string {
  const root = withTrailingSep(target.root);
  // Most files are under their target's root: no path.relative (thousands of tags).
  if (absPath.startsWith(root) && !absPath.includes(`${path.sep}..`)) return toPosix(absPath.slice(root.length));
  return toPosix(path.relative(target.root, absPath));
}

function url(target: ScanTarget, absPath: string, line: number): string | undefined {
  const links = target.source_links;
  if (!links) return undefined;
  return `${links.url}/blob/${links.branch}/${toPosix(path.relative(links.gitRoot, absPath))}#L${line}`;
}

class Collector {
  readonly references: CodeReference[] = [];
  readonly diagnostics: Diagnostic[] = [];
  files = 0;
  filesWithTags = 0;
  tags = 0;
  private readonly byProject = new Map<string, ScanTarget>();
  private readonly known: Set<string>;
  private readonly nearMisses: NearMisses;

  constructor(targets: ScanTarget[], knownProjects: Iterable<string> | undefined) {
    for (const t of targets) {
      if (!this.byProject.has(t.project.toLowerCase())) this.byProject.set(t.project.toLowerCase(), t);
    }
    const names = [...(knownProjects ?? targets.map((t) => t.project))];
    this.known = new Set(names.map((p) => p.toLowerCase()));
    this.nearMisses = new NearMisses(names);
  }

  /** A file's outcome; `targets`: those whose patterns matched it, in target order. */
  add(absPath: string, targets: ScanTarget[], outcome: Outcome): void {
    this.files++;
    const fallback = targets[0];
    if ("error" in outcome) {
      this.warn(displayPath(fallback, absPath), 0, 0, outcome.error, absPath);
      return;
    }
    const { result } = outcome;
    // Most files of a tree: nothing to add.
    if (result.tags.length === 0 && result.diagnostics.length === 0) return;
    let counted = 0;
    for (const tag of result.tags) if (tag.reference) counted++;
    this.tags += counted;
    if (counted > 0) this.filesWithTags++;
    for (const d of result.diagnostics) this.warn(displayPath(fallback, absPath), d.line, d.column, d.message, absPath);
    let unknown: RawTag[] | null = null;
    for (const tag of result.tags) {
      if (!this.known.has(tag.project.toLowerCase())) {
        if (tag.reference) (unknown ??= []).push(tag);
        continue;
      }
      this.addTag(absPath, fallback, tag, result.language ?? "", result.outline);
    }
    // speky:speky-ts#SCAN-NEAR-MISS-PROJECT
    if (unknown) {
      for (const w of this.nearMisses.warnings(unknown)) this.warn(displayPath(fallback, absPath), w.line, w.column, w.message, absPath);
    }
  }

  private addTag(absPath: string, fallback: ScanTarget, tag: RawTag, language: string, outline: FileOutline | undefined): void {
    const owner = this.byProject.get(tag.project.toLowerCase());
    const target = owner ?? fallback;
    const file = displayPath(target, absPath);
    if (tag.warning) this.warn(file, tag.line, tag.column, tag.warning, absPath);
    if (!tag.reference) return;
    const reference: CodeReference = {
      project: owner ? owner.project : tag.project,
      id: tag.id,
      file,
      line: tag.line,
      column: tag.column,
      tag_line: tag.tag_line,
      tag_column: tag.tag_column,
      symbol: tag.symbol,
      kind: tag.kind,
      is_test: tag.is_test,
      language,
    };
    const link = url(target, absPath, tag.line);
    if (link) reference.url = link;
    if (tag.span) [reference.start_line, reference.end_line] = tag.span;
    if (outline) reference.outline = outline;
    this.references.push(reference);
  }

  warn(file: string, line: number, column: number, message: string, absPath?: string): void {
    const d: Diagnostic = { file, line, column, severity: "warning", message };
    this.diagnostics.push(absPath === undefined ? d : locatedAt(d, absPath));
  }

  result(started: number): ScanResult {
    return {
      references: this.references.sort(compareReferences),
      diagnostics: dedupe(this.diagnostics.sort(compareDiagnostics)),
      stats: {
        files: this.files,
        files_with_tags: this.filesWithTags,
        tags: this.tags,
        ms: Math.round(nowMs() - started),
      },
    };
  }
}

function compareReferences(a: CodeReference, b: CodeReference): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    compareStrings(a.id, b.id) ||
    a.column - b.column ||
    a.tag_line - b.tag_line ||
    a.tag_column - b.tag_column ||
    compareStrings(a.project, b.project)
  );
}

/** Drops repeats (every tag of an unreadable binary file gets the same file-level warning). */
function dedupe(sorted: Diagnostic[]): Diagnostic[] {
  return sorted.filter((d, i) => i === 0 || compareDiagnostics(d, sorted[i - 1]) !== 0);
}

async function collect(
  reading: Reading,
  jobs: FileJobs,
  targets: ScanTarget[],
  options: ScanOptions,
  walkDiagnostics: Diagnostic[],
): Promise<Collector> {
  const collector = new Collector(targets, options.knownProjects);
  collector.diagnostics.push(...walkDiagnostics);
  const outcomes = await reading.outcomes(jobs);
  for (let i = 0; i < jobs.length; i++) collector.add(jobs.absPaths[i], jobs.targetsOf(i), outcomes[i]);
  return collector;
}

/** What the walk of a scan found: its files, and what it could not use. */
interface Walked {
  jobs: FileJobs;
  diagnostics: Diagnostic[];
  missing?: string[];
}

/**
 * A warm scan of a tree where nothing changed since the cache was written: the walk is run
 * with a probe (cache.ts) that answers each remembered walk with no files, and when all of
 * them are remembered, no file came from elsewhere and no file's stamp changed, the files
 * holding tags are collected from the cache, with no job, lookup or outcome per file. A
 * tree with any change, or a scan of several targets, takes the usual way.
 */
async function replayed(
  cache: ScanCache | null,
  targets: ScanTarget[],
  options: ScanOptions,
  walk: (setup: WalkSetup) => Promise<Walked>,
): Promise<Collector | null> {
  const probe = targets.length === 1 ? cache?.probe() : null;
  if (!cache || !probe) return null;
  let walked: Walked;
  try {
    walked = await walk({ filter: probe, blocking: options.cooperative !== true });
  } catch (err) {
    if (probe.missed) return null;
    throw err;
  }
  if (walked.jobs.length > 0 || walked.diagnostics.length > 0 || (walked.missing?.length ?? 0) > 0) return null;
  const found = await cache.replay(probe);
  if (!found) return null;
  trace(`replayed: ${found.files} files unchanged`);
  options.onProgress?.(0, found.files);
  if (options.afterWalk) await options.afterWalk(found.files);
  const collector = new Collector(targets, options.knownProjects);
  for (const [absPath, result] of found.results) collector.add(absPath, targets, { result });
  collector.files = found.files;
  options.onProgress?.(found.files, found.files);
  saveLater(cache);
  return collector;
}

/** The deepest directory holding all of `paths` (where a scan's cache keeps paths relative to). */
function commonDirectory(paths: string[]): string {
  if (paths.length === 0) return path.resolve();
  let common = paths[0];
  for (const p of paths.slice(1)) {
    while (common !== path.dirname(common) && p !== common && !p.startsWith(withTrailingSep(common))) {
      common = path.dirname(common);
    }
  }
  return common;
}

// speky:speky-ts#CHECK-LAZY-MODULES
/** The cache's modules are loaded only when it is used: `--no-cache` (a pre-commit check) skips them. */
async function openCache(options: ScanOptions | PathScanOptions, scope: unknown, base: string, merge: boolean): Promise<ScanCache | null> {
  if (!options.cache) return null;
  const { ScanCache } = await import("./cache/cache.js");
  const cooperative = "cooperative" in options && options.cooperative === true;
  const cache = new ScanCache({ scope, base, merge, note: options.cacheNote, saved: options.cacheSaved, cooperative });
  trace("cache file read");
  return cache;
}

/**
 * The way to the files' outcomes when the cache can't answer for the whole tree (replayed):
 * its modules (the pool, the reads) load only then.
 */
async function read(cache: ScanCache | null, options: ScanOptions, walks: boolean): Promise<Reading> {
  const { Reading } = await import("./read/read-jobs.js");
  return new Reading(cache, options, walks);
}

/** Scans the targets' code sources; a file matched by several targets is scanned once. */
export async function scan(targets: ScanTarget[], options: ScanOptions = {}): Promise<ScanResult> {
  const started = nowMs();
  trace("start");
  const scope = { targets: targets.map((t) => [t.root, t.patterns]).sort((a, b) => compareStrings(JSON.stringify(a), JSON.stringify(b))) };
  const cache = await openCache(options, scope, targets[0]?.root ?? process.cwd(), options.onlyFiles !== undefined);
  const replay = options.onlyFiles ? null : await replayed(cache, targets, options, (setup) => expandTargets(targets, setup));
  if (replay) return replay.result(started);
  // Pre-commit mode matches the named files against the patterns: no walk of the whole tree.
  const reading = await read(cache, options, options.onlyFiles === undefined);
  try {
    const { jobs, diagnostics } = options.onlyFiles
      ? await expandTargetsFor(targets, options.onlyFiles)
      : await expandTargets(targets, reading.walkSetup);
    return (await collect(reading, jobs, targets, options, diagnostics)).result(started);
  } finally {
    reading.end();
  }
}

/** Scans files and directories given directly for one project; paths shown relative to `cwd`. */
export async function scanPaths(
  project: string,
  paths: string[],
  cwd: string = process.cwd(),
  options: PathScanOptions = {},
): Promise<ScanResult> {
  const started = nowMs();
  trace("start");
  const target: ScanTarget = { project, root: path.resolve(cwd), patterns: [] };
  const cache = await openCache(
    options,
    { paths: [target.root, paths], ignore: options.ignore ?? true },
    commonDirectory(paths.map((p) => path.resolve(cwd, p))),
    false,
  );
  const walkOptions = { allowOutside: options.allowOutside, ignore: options.ignore };
  const replay = await replayed(cache, [target], options, (setup) => expandPaths(paths, target.root, target, walkOptions, setup));
  if (replay) return replay.result(started);
  const reading = await read(cache, options, true);
  try {
    const { jobs, missing, diagnostics } = await expandPaths(paths, target.root, target, walkOptions, reading.walkSetup);
    const collector = await collect(reading, jobs, [target], options, diagnostics);
    for (const p of missing) collector.warn(toPosix(p), 0, 0, "no such file or directory");
    return collector.result(started);
  } finally {
    reading.end();
  }
}
