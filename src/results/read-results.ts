// Which results files a model reads, and reading them: the manifests' `test_results` globs
// (relative to each root, confined like code_sources) and the command line's `--results`
// globs (relative to the working directory), each real file once, in the globs' order.

import path from "node:path";
import { compareDiagnostics, type Diagnostic, locatedAt } from "../diagnostics.js";
import { type Boundary, boundaryForRelative } from "../fs/boundary.js";
import { compileGlob, GlobWalker } from "../fs/globs.js";
import { toPosix } from "../fs/paths.js";
import { MAX_TESTCASES, readJUnitFile } from "./junit-reader.js";
import type { ResultsSources } from "./sources.js";
import type { ResultsFile, ResultsRead, Testcase } from "./types.js";

/** Results files beyond this many are not read. */
export const MAX_RESULTS_FILES = 10_000;

interface Found {
  abs: string;
  real: string;
  display: string;
}

/** The folder a glob's walk starts from (the file a literal path names), as written. */
function globBase(glob: string): string {
  const compiled = compileGlob(glob);
  return compiled ? compiled.base || "." : glob;
}

async function findFiles(sources: ResultsSources, diagnostics: Diagnostic[]): Promise<Found[]> {
  const walker = new GlobWalker();
  const found: Found[] = [];
  const seen = new Set<string>();
  const keep = { keep: (abs: string) => abs.toLowerCase().endsWith(".xml") };
  const add = (files: { abs: string; real: string }[], display: (abs: string) => string) => {
    for (const f of files) {
      if (seen.has(f.real)) continue;
      seen.add(f.real);
      found.push({ abs: f.abs, real: f.real, display: display(f.abs) });
    }
  };
  for (const m of sources.manifests) {
    const globs = m.test_results ?? [];
    for (const [i, glob] of globs.entries()) {
      const site = m.test_result_sites?.[i] ?? { file: m.file, line: 0, column: 0 };
      const result = await walker.expand(m.root, glob, { boundary: m.boundary, ignore: false, folder: keep });
      // Located: a command names the manifest from its own folder (src/cli/shown-paths.ts).
      for (const p of result.problems) {
        diagnostics.push(locatedAt({ ...site, severity: p.severity, message: `test_results: ${p.message}` }, m.absFile));
      }
      add(result.files, (abs) => toPosix(path.relative(m.root, abs)));
    }
  }
  for (const glob of sources.globs) {
    const boundary: Boundary | null = sources.allowOutside ? null : boundaryForRelative(sources.cwd, globBase(glob));
    const result = await walker.expand(sources.cwd, glob, { boundary, ignore: false, folder: keep });
    for (const p of result.problems)
      diagnostics.push({ file: glob, line: 0, column: 0, severity: p.severity, message: `--results: ${p.message}` });
    add(result.files, (abs) => toPosix(path.relative(sources.cwd, abs)));
  }
  return found;
}

// speky:speky-ts#RESULTS-READ
/** Finds and reads every results file; a file that cannot be read is reported and left out. */
export async function readResults(sources: ResultsSources): Promise<ResultsRead> {
  const diagnostics: Diagnostic[] = [];
  const found = await findFiles(sources, diagnostics);
  const files: ResultsFile[] = [];
  const testcases: Testcase[] = [];
  for (const [i, f] of found.entries()) {
    if (i >= MAX_RESULTS_FILES) {
      const message = `not read: more than ${MAX_RESULTS_FILES.toLocaleString("en-US")} results files are given`;
      diagnostics.push(locatedAt({ file: f.display, line: 0, column: 0, severity: "error", message }, f.abs));
      continue;
    }
    const read = await readJUnitFile(f.real, f.display, files.length, MAX_TESTCASES - testcases.length);
    if (read.error) {
      diagnostics.push(locatedAt(read.error, f.abs));
      continue;
    }
    for (const w of read.warnings) diagnostics.push(w);
    for (const t of read.testcases) testcases.push(t);
    const timestamp = read.timestamp ?? read.mtime?.toISOString() ?? "";
    const file: ResultsFile = { file: f.display, abs: f.abs, timestamp, testcases: read.testcases.length };
    if (read.mtime) file.mtimeMs = read.mtime.getTime();
    const unlisted = (read.declaredErrors ?? 0) - read.testcases.filter((t) => t.outcome === "error").length;
    if (unlisted > 0) file.unlistedErrors = unlisted;
    files.push(file);
  }
  return { files, testcases, diagnostics: diagnostics.sort(compareDiagnostics) };
}
