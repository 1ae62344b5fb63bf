// Which files to scan: manifest targets' globs, or paths from the command line.
import { stat } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import { compareStrings } from "../diagnostics.js";
import { languageForPath } from "./languages.js";
import type { ScanTarget } from "./types.js";

export interface FileJob {
  absPath: string;
  /** Targets whose patterns matched the file, in target order. */
  targets: ScanTarget[];
}

const ALWAYS_SKIPPED = [".git", "node_modules"];

/** .git and node_modules are skipped unless the pattern itself names them. */
function ignoresFor(pattern: string): string[] {
  const segments = pattern.split(/[\\/]/);
  return ALWAYS_SKIPPED.filter((dir) => !segments.includes(dir)).map((dir) => `**/${dir}/**`);
}

async function kindOf(absPath: string): Promise<"file" | "directory" | null> {
  try {
    const s = await stat(absPath);
    return s.isDirectory() ? "directory" : s.isFile() ? "file" : null;
  } catch {
    return null;
  }
}

/** Files under a directory that some grammar handles (speky's own directory rule). */
async function sourcesUnder(dir: string, pattern: string): Promise<string[]> {
  const found = await fg("**/*", {
    cwd: dir,
    absolute: true,
    dot: false,
    onlyFiles: true,
    suppressErrors: true,
    ignore: ignoresFor(pattern),
  });
  return found.map((f) => path.resolve(f)).filter((f) => languageForPath(f) !== null);
}

/** A pattern naming an existing file or directory is a path (speky lists paths); otherwise a glob. */
async function expandPattern(root: string, pattern: string): Promise<string[]> {
  const literal = path.resolve(root, pattern);
  const kind = await kindOf(literal);
  if (kind === "file") return [literal];
  if (kind === "directory") return sourcesUnder(literal, pattern);
  const found = await fg(pattern, {
    cwd: root,
    absolute: true,
    dot: false,
    onlyFiles: true,
    suppressErrors: true,
    ignore: ignoresFor(pattern),
  });
  return found.map((f) => path.resolve(f));
}

function sortedJobs(jobs: Map<string, FileJob>): FileJob[] {
  return [...jobs.values()].sort((a, b) => compareStrings(a.absPath, b.absPath));
}

/** Each file once, however many targets or patterns match it. */
export async function expandTargets(targets: ScanTarget[]): Promise<FileJob[]> {
  const jobs = new Map<string, FileJob>();
  for (const target of targets) {
    for (const pattern of target.patterns) {
      for (const absPath of await expandPattern(target.root, pattern)) {
        const job = jobs.get(absPath);
        if (!job) jobs.set(absPath, { absPath, targets: [target] });
        else if (!job.targets.includes(target)) job.targets.push(target);
      }
    }
  }
  return sortedJobs(jobs);
}

/** Command-line paths: files as given, directories walked; `missing` lists the paths not found. */
export async function expandPaths(
  paths: string[],
  cwd: string,
  target: ScanTarget,
): Promise<{ jobs: FileJob[]; missing: string[] }> {
  const jobs = new Map<string, FileJob>();
  const missing: string[] = [];
  for (const p of paths) {
    const absPath = path.resolve(cwd, p);
    const kind = await kindOf(absPath);
    if (kind === null) missing.push(p);
    const files = kind === "file" ? [absPath] : kind === "directory" ? await sourcesUnder(absPath, p) : [];
    for (const f of files) if (!jobs.has(f)) jobs.set(f, { absPath: f, targets: [target] });
  }
  return { jobs: sortedJobs(jobs), missing };
}
