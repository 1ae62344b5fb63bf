// `speky report` in the command registry (src/commands/index.ts): options, help, and the
// mapping of output-folder failures to one line and exit 2.
import { CommandError, flag, listOption, type ParsedArgs, stringOption } from "../cli/args.js";
import { type Command, CSV_OPTION, NO_CACHE_OPTION, print, RESULTS_OPTION } from "../cli/command.js";
import { DEFAULT_HELP, manifestPaths } from "../cli/default-manifests.js";
import { fileErrorReason } from "../cli/file-error.js";
import { escapeControl } from "../diagnostics.js";
import { quote } from "../quote.js";
import { DEFAULT_OUT, REPORT_FORMATS, type ReportFormat } from "../report/formats.js";
import type { ReportOutcome } from "../report/write-report.js";

async function reportOutcome(args: ParsedArgs, cwd: string): Promise<ReportOutcome> {
  const manifests = await manifestPaths("report", args.positionals, cwd);
  const note = manifests.note ? `speky: ${escapeControl(manifests.note)}\n` : "";
  const out = stringOption(args, "out");
  // Loaded on use: every `speky` command imports this registry entry.
  const [{ runReport }, { OutputError }] = await Promise.all([import("../report/write-report.js"), import("../report/site.js")]);
  try {
    const outcome = await runReport(manifests.paths, {
      format: (stringOption(args, "format") ?? "html") as ReportFormat,
      out,
      csvs: listOption(args, "csv"),
      cache: !flag(args, "no-cache"),
      cwd,
      results: listOption(args, "results"),
      diff: stringOption(args, "diff"),
    });
    return note ? { ...outcome, stderr: note + outcome.stderr } : outcome;
  } catch (error) {
    if (error instanceof OutputError) throw new CommandError(error.message);
    if (error instanceof (await import("../git/git-error.js")).GitError) throw new CommandError(error.message);
    if (typeof (error as NodeJS.ErrnoException)?.code === "string") {
      throw new CommandError(`cannot write the report into ${quote(out ?? DEFAULT_OUT)}: ${fileErrorReason(error)}`);
    }
    throw error;
  }
}

export const reportCommand: Command = {
  name: "report",
  summary: "write a static HTML traceability report, or a Markdown summary",
  usage: ["[PATH...] [--out DIR] [--format html|markdown] [--diff BASE] [--no-cache] [-C CSV]... [--results GLOB]..."],
  description: `Write a static site into DIR (default ${DEFAULT_OUT}/) that opens from the file system
with no network request: the index (coverage per category, every requirement, search and
filters), a view per requirement and per test, the matrix and the problems. DIR must be empty,
absent, or a previous report. --format markdown prints the summary, coverage and problems
to stdout instead (to DIR/report.md with --out), e.g. for a CI job summary. With JUnit XML
test results (--results, or the manifests' test_results), each requirement and test plan shows
what the last run verified, and the index a verification summary beside the coverage one.
--diff BASE adds a "changes" page (with markdown: a section) with what the working tree
changed in the specification since git revision BASE, as speky diff BASE reports it.
PATH is a manifest (kind: project) or a specification file.
${DEFAULT_HELP}
Exit codes: 0 written, 1 when the specs do not load (nothing written), 2 usage error (or no
manifest) or unusable output folder.`,
  options: [
    { name: "out", short: "o", value: "DIR", help: `output folder (default: ${DEFAULT_OUT}/ for html, stdout for markdown)` },
    { name: "format", value: "FORMAT", choices: REPORT_FORMATS, help: "html (default) or markdown" },
    CSV_OPTION,
    { name: "diff", value: "BASE", help: 'add a "changes" page: the changes since git revision BASE' },
    NO_CACHE_OPTION,
    RESULTS_OPTION,
  ],
  async run(args, context) {
    return print(await reportOutcome(args, context.cwd), context);
  },
};
