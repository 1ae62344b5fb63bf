// `speky report PATH... [--out DIR] [--format html|markdown]`: the model the MCP tools serve,
// as a static site or a Markdown summary. Exit 0 when written, 1 when the specs don't load
// (their errors printed, no report); an unusable output folder throws (OutputError or a
// file-system error), which the command line turns into one line and exit 2.
import path from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { writeNewFile } from "../fs/write-output.js";
import { loadModel } from "../model/load-model.js";
import { relativeTo, shownDiagnostic } from "../text/shown-paths.js";
import { reportData } from "./data.js";
import { DEFAULT_OUT, type ReportFormat } from "./formats.js";
import { generation } from "./generation.js";
import { markdownReport } from "./markdown.js";
import { prepareOutput, writeSite } from "./site.js";

export { DEFAULT_OUT, REPORT_FORMATS, type ReportFormat } from "./formats.js";

export interface ReportOptions {
  format: ReportFormat;
  /** Output folder; undefined: speky-report/ for HTML, standard output for Markdown. */
  out?: string;
  csvs?: string[];
  cache?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** `--results` globs of JUnit XML files, relative to cwd. */
  results?: string[];
  /** A git revision: add the "changes" page, what the working tree changed since it. */
  diff?: string;
}

export interface ReportOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

// speky:speky-ts#REPORT-COMMAND
export async function runReport(paths: readonly string[], options: ReportOptions): Promise<ReportOutcome> {
  const cwd = options.cwd ?? process.cwd();
  // Messages on stderr name files relative to the working directory; the pages keep the model's paths.
  const show = relativeTo(cwd);
  const { model, diagnostics } = await loadModel([...paths], {
    cwd,
    csvs: options.csvs,
    cache: options.cache ?? true,
    results: options.results,
    cite: show,
  });
  if (!model) {
    const lines = diagnostics.map((d) => `${formatDiagnostic(shownDiagnostic(d, show))}\n`).join("");
    return {
      stdout: "",
      stderr: `${lines}speky: the specifications have errors; no report written\n`,
      exitCode: 1,
    };
  }
  const gitDir = model.manifests[0]?.root ?? path.dirname(path.resolve(cwd, paths[0]));
  const made = await generation(gitDir, options.env);
  if (made.commit !== null) {
    const { uncommittedCount } = await import("../git/uncommitted.js");
    const roots = new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
    const code = model.codeReferences.map((r) => path.resolve(roots.get(r.project.toLowerCase()) ?? cwd, r.file));
    const count = await uncommittedCount(gitDir, [...model.specs.files, ...code]);
    if (count !== null) made.uncommitted = count;
  }
  const data = reportData(model, diagnostics, made);
  if (options.diff !== undefined) {
    // speky:speky-ts#DIFF-REPORT
    const { computeChanges } = await import("../diff/changes.js");
    const diffed = await computeChanges({
      cwd,
      base: options.diff,
      paths,
      options: { csvs: options.csvs, cache: options.cache ?? true },
      headModel: { model, diagnostics },
    });
    data.changes = diffed.changes;
    data.changesBase = diffed.base;
  }
  if (options.format === "markdown") {
    let markdown = markdownReport(data);
    if (data.changes) markdown += `\n${(await import("../diff/format-markdown.js")).markdownReport(data.changes, () => undefined)}`;
    if (options.out === undefined) return { stdout: markdown, stderr: "", exitCode: 0 };
    const dir = prepareOutput(options.out, { cwd });
    writeNewFile(path.join(dir, "report.md"), markdown);
    return { stdout: `speky: wrote ${path.join(options.out, "report.md")}\n`, stderr: "", exitCode: 0 };
  }
  const out = options.out ?? DEFAULT_OUT;
  const stats = writeSite(data, out, { cwd });
  return {
    stdout: `speky: wrote ${path.join(out, "index.html")} (${stats.pages} pages, ${(stats.bytes / 1e6).toFixed(1)} MB)\n`,
    stderr: "",
    exitCode: 0,
  };
}
