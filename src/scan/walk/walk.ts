// Which files to scan: the manifests' code_sources, or paths from the command line. What a
// pattern reaches is decided by src/fs/globs.ts, the rule the spec loader and the watcher use
// too; here only what is particular to code: a folder named outright means the files under it
// that some grammar reads, ignore files apply, each real file is scanned once, and a pattern's
// problems become diagnostics at the manifest line that holds it.

import { statSync } from "node:fs";
import path from "node:path";
import { type Diagnostic, locatedAt } from "../../diagnostics.js";
import { type Boundary, boundaryFor } from "../../fs/boundary.js";
import { type GlobProblem, GlobWalker, patternReaches, type WalkSetup } from "../../fs/globs.js";
import { isIgnoredFile } from "../../fs/ignore-rules.js";
import { realOrNull, toPosix } from "../../fs/paths.js";
import { languageForPath } from "../grammar/languages.js";
import type { ScanTarget } from "../types.js";
import { type FileJobs, JobsBuilder } from "./file-jobs.js";

/** How a scan walks: GlobWalker's setup (its filter: the scan cache). */
export type { DirStamp, WalkSetup } from "../../fs/globs.js";
export type { FileJob, FileJobs } from "./file-jobs.js";

interface Expanded {
  /** Sorted by path; each real file once. */
  jobs: FileJobs;
  /** Problems of the patterns (outside the boundary, matching nothing), at their manifest lines. */
  diagnostics: Diagnostic[];
}

const isSource = (abs: string) => languageForPath(abs) !== null;

function diagnosticOf(target: ScanTarget, index: number, problem: GlobProblem): Diagnostic {
  const site = target.sites?.[index] ?? { file: target.patterns[index], line: 0, column: 0 };
  const d: Diagnostic = { file: site.file, line: site.line, column: site.column, severity: problem.severity, message: problem.message };
  return target.sites?.[index] && target.sitesPath !== undefined ? locatedAt(d, target.sitesPath) : d;
}

/** Each file once, however many targets or patterns match it. */
export async function expandTargets(targets: ScanTarget[], walk: WalkSetup = {}): Promise<Expanded> {
  const walker = new GlobWalker(walk);
  const jobs = new JobsBuilder();
  const diagnostics: Diagnostic[] = [];
  for (const target of targets) {
    const options = { boundary: target.boundary ?? null, ignore: target.ignore ?? true, folder: { keep: isSource } };
    for (const [i, pattern] of target.patterns.entries()) {
      const { files, problems } = await walker.expand(target.root, pattern, options);
      jobs.addWalk(files, target);
      for (const p of problems) diagnostics.push(diagnosticOf(target, i, p));
    }
  }
  return { jobs: jobs.sorted(), diagnostics };
}

/** Whether one existing file is among a pattern's files, without walking (pre-commit mode). */
function patternHas(target: ScanTarget, pattern: string, file: string): boolean {
  const literal = path.resolve(target.root, pattern);
  if (statSync(literal, { throwIfNoEntry: false })?.isDirectory()) {
    const rel = path.relative(literal, file);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return false;
    return !rel.split(path.sep).includes(".git") && isSource(file);
  }
  return patternReaches(target.root, pattern, file);
}

/**
 * The jobs of `expandTargets` restricted to `files` (absolute paths, given on the command
 * line: always allowed), found by matching each file against the patterns instead of walking
 * the trees: what a commit hook needs.
 */
export async function expandTargetsFor(targets: ScanTarget[], files: string[]): Promise<Expanded> {
  const jobs = new JobsBuilder();
  for (const file of new Set(files.map((f) => path.resolve(f)))) {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
    const real = realOrNull(file) ?? file;
    let ignored: boolean | undefined;
    for (const target of targets) {
      if (!target.patterns.some((pattern) => patternHas(target, pattern, file))) continue;
      ignored ??= isIgnoredFile(real);
      if ((target.ignore ?? true) && ignored) continue;
      jobs.add(file, real, target);
    }
  }
  return { jobs: jobs.sorted(), diagnostics: [] };
}

interface PathOptions {
  /** null: no confinement for links under the folders (--allow-outside). */
  allowOutside?: boolean;
  ignore?: boolean;
}

/** Command-line paths: files as given, directories walked; `missing` lists the paths not found. */
export async function expandPaths(
  paths: string[],
  cwd: string,
  target: ScanTarget,
  options: PathOptions = {},
  walk: WalkSetup = {},
): Promise<{ jobs: FileJobs; missing: string[]; diagnostics: Diagnostic[] }> {
  const walker = new GlobWalker(walk);
  const jobs = new JobsBuilder();
  const missing: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const p of paths) {
    const absPath = path.resolve(cwd, p);
    const st = statSync(absPath, { throwIfNoEntry: false });
    if (st?.isFile()) {
      jobs.add(absPath, realOrNull(absPath) ?? absPath, target);
    } else if (st?.isDirectory()) {
      // The folder is the user's own; a link under it leading outside its project is not.
      const boundary: Boundary | null = options.allowOutside ? null : boundaryFor(absPath);
      const { files, problems } = await walker.folder(absPath, toPosix(p), isSource, {
        boundary,
        ignore: options.ignore ?? true,
      });
      jobs.addWalk(files, target);
      for (const problem of problems) diagnostics.push({ file: p, line: 0, column: 0, severity: "warning", message: problem.message });
    } else {
      missing.push(p);
    }
  }
  return { jobs: jobs.sorted(), missing, diagnostics };
}
