// `speky scan`: files of the targets → code references and diagnostics, attributed to the
// target whose project each tag names.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { compareDiagnostics, compareStrings, type Diagnostic } from "../diagnostics.js";
import type { RawTag } from "./engine.js";
import { scanFileBuffer, type FileResult } from "./file.js";
import type { CodeReference, ScanResult, ScanTarget } from "./types.js";
import { expandPaths, expandTargets, type FileJob } from "./walk.js";

export interface ScanOptions {
  /**
   * Project names whose tags are reported (case-insensitive); default: the targets'
   * projects. Tags of other projects are only counted.
   */
  knownProjects?: Iterable<string>;
  /** Scan only these absolute paths among the matched files (pre-commit mode). */
  onlyFiles?: string[];
}

const READ_CONCURRENCY = 16;

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

function displayPath(target: ScanTarget, absPath: string): string {
  return toPosix(path.relative(target.root, absPath));
}

function url(target: ScanTarget, absPath: string, line: number): string | undefined {
  const links = target.source_links;
  if (!links) return undefined;
  return `${links.url}/blob/${links.branch}/${toPosix(path.relative(links.gitRoot, absPath))}#L${line}`;
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type Outcome = { result: FileResult } | { error: string };

/** A file that can't be read or scanned is a warning, not the end of the scan. */
async function scanJob(job: FileJob): Promise<Outcome> {
  let buffer: Buffer;
  try {
    buffer = await readFile(job.absPath);
  } catch (err) {
    return { error: `cannot read file: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  try {
    return { result: await scanFileBuffer(job.absPath, buffer) };
  } catch (err) {
    return { error: `cannot scan file: ${err instanceof Error ? err.message : String(err)}` };
  }
}

class Collector {
  readonly references: CodeReference[] = [];
  readonly diagnostics: Diagnostic[] = [];
  files = 0;
  filesWithTags = 0;
  tags = 0;
  private readonly byProject = new Map<string, ScanTarget>();
  private readonly known: Set<string>;

  constructor(targets: ScanTarget[], knownProjects: Iterable<string> | undefined) {
    for (const t of targets) {
      if (!this.byProject.has(t.project.toLowerCase())) this.byProject.set(t.project.toLowerCase(), t);
    }
    this.known = new Set([...(knownProjects ?? targets.map((t) => t.project))].map((p) => p.toLowerCase()));
  }

  add(job: FileJob, outcome: Outcome): void {
    this.files++;
    const fallback = job.targets[0];
    if ("error" in outcome) {
      this.warn(displayPath(fallback, job.absPath), 0, 0, outcome.error);
      return;
    }
    const { result } = outcome;
    const counted = result.tags.filter((t) => t.reference).length;
    this.tags += counted;
    if (counted > 0) this.filesWithTags++;
    for (const d of result.diagnostics) this.warn(displayPath(fallback, job.absPath), d.line, d.column, d.message);
    for (const tag of result.tags) {
      if (!this.known.has(tag.project.toLowerCase())) continue;
      this.addTag(job, tag, result.language ?? "");
    }
  }

  private addTag(job: FileJob, tag: RawTag, language: string): void {
    const owner = this.byProject.get(tag.project.toLowerCase());
    const target = owner ?? job.targets[0];
    const file = displayPath(target, job.absPath);
    if (tag.warning) this.warn(file, tag.line, tag.column, tag.warning);
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
    const link = url(target, job.absPath, tag.line);
    if (link) reference.url = link;
    this.references.push(reference);
  }

  warn(file: string, line: number, column: number, message: string): void {
    this.diagnostics.push({ file, line, column, severity: "warning", message });
  }

  result(started: number): ScanResult {
    return {
      references: this.references.sort(compareReferences),
      diagnostics: dedupe(this.diagnostics.sort(compareDiagnostics)),
      stats: {
        files: this.files,
        files_with_tags: this.filesWithTags,
        tags: this.tags,
        ms: Math.round(performance.now() - started),
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

async function collect(jobs: FileJob[], targets: ScanTarget[], options: ScanOptions): Promise<Collector> {
  const collector = new Collector(targets, options.knownProjects);
  const outcomes = await mapLimited(jobs, READ_CONCURRENCY, scanJob);
  jobs.forEach((job, i) => collector.add(job, outcomes[i]));
  return collector;
}

/** Scans the targets' code sources; a file matched by several targets is scanned once. */
export async function scan(targets: ScanTarget[], options: ScanOptions = {}): Promise<ScanResult> {
  const started = performance.now();
  let jobs = await expandTargets(targets);
  if (options.onlyFiles) {
    const only = new Set(options.onlyFiles.map((f) => path.resolve(f)));
    jobs = jobs.filter((job) => only.has(job.absPath));
  }
  return (await collect(jobs, targets, options)).result(started);
}

/** Scans files and directories given directly for one project; paths shown relative to `cwd`. */
export async function scanPaths(project: string, paths: string[], cwd: string = process.cwd()): Promise<ScanResult> {
  const started = performance.now();
  const target: ScanTarget = { project, root: path.resolve(cwd), patterns: [] };
  const { jobs, missing } = await expandPaths(paths, target.root, target);
  const collector = await collect(jobs, [target], {});
  for (const p of missing) collector.warn(toPosix(p), 0, 0, "no such file or directory");
  return collector.result(started);
}
