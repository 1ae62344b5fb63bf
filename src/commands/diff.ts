// `speky diff BASE [HEAD] [PATH...]`: what a change did to the specification (contract:
// docs/changes.md). The logic is src/diff; this is the command line: arguments, formats, exit codes.
import { statSync } from "node:fs";
import path from "node:path";
import { CommandError, flag, listOption, type ParsedArgs, stringOption, UsageError } from "../cli/args.js";
import { type Command, CSV_OPTION, NO_CACHE_OPTION, print, VERBOSE_CACHE_OPTION, WALK_OPTIONS } from "../cli/command.js";
import { DEFAULT_MANIFEST, ownOrAbove } from "../cli/default-manifests.js";
import { verboseNote } from "../cli/verbose.js";
import { escapeControl } from "../diagnostics.js";
import { quote } from "../quote.js";

const DIFF_FORMATS = ["text", "markdown", "json"] as const;
type DiffFormat = (typeof DIFF_FORMATS)[number];
const SPEC_EXTENSION = /\.(ya?ml|toml|json)$/i;

export interface DiffOutcomeText {
  stdout: string;
  /** Which manifest was used when it was found above the current folder. */
  stderr: string;
  exitCode: number;
}

/** The second positional is HEAD unless it names an existing file or folder, or a spec file by its extension. */
function isPath(arg: string, cwd: string): boolean {
  if (SPEC_EXTENSION.test(arg)) return true;
  try {
    statSync(path.resolve(cwd, arg));
    return true;
  } catch {
    return false;
  }
}

// speky:speky-ts#DIFF-COMMAND
async function diffOutcome(args: ParsedArgs, cwd: string): Promise<DiffOutcomeText> {
  const [base, ...rest] = args.positionals;
  if (base === undefined) throw new UsageError("diff needs a base revision (e.g. speky diff origin/main)");
  const head = rest.length > 0 && !isPath(rest[0], cwd) ? rest.shift() : undefined;
  // No PATH: ./speky.yaml, else the nearest above in the git work tree (said on stderr).
  const found = rest.length > 0 ? null : ownOrAbove(cwd);
  const paths = rest.length > 0 ? rest : (found?.paths ?? [DEFAULT_MANIFEST]);
  const stderr = found?.note ? `speky: ${escapeControl(found.note)}\n` : "";
  const format = (stringOption(args, "format") ?? "text") as DiffFormat;
  const reportUrl = stringOption(args, "report-url");
  if (reportUrl !== undefined && !/^https?:\/\/[^\s<>"'`]+$/i.test(reportUrl)) {
    throw new UsageError(`--report-url must be an http(s) URL, not ${quote(reportUrl)}`);
  }
  // Loaded on use: every `speky` command imports this registry entry.
  const [{ computeChanges }, { GitError }, failOn, text] = await Promise.all([
    import("../diff/changes.js"),
    import("../git/git-error.js"),
    import("../diff/fail-on.js"),
    import("../diff/format-text.js"),
  ]);
  const names = failOn.parseFailOn(listOption(args, "fail-on"));
  if ("unknown" in names) {
    throw new UsageError(`--fail-on takes ${[...failOn.FAIL_ON_NAMES.keys()].join(", ")}; not ${quote(names.unknown)}`);
  }
  let outcome: Awaited<ReturnType<typeof computeChanges>>;
  try {
    outcome = await computeChanges({
      cwd,
      base,
      head,
      paths,
      options: {
        csvs: listOption(args, "csv"),
        cache: !flag(args, "no-cache"),
        allowOutside: flag(args, "allow-outside"),
        ignore: !flag(args, "no-ignore"),
        cacheNote: verboseNote(args),
      },
    });
  } catch (error) {
    if (error instanceof GitError) throw new CommandError(error.message);
    throw error;
  }
  const { changes } = outcome;
  let stdout: string;
  if (format === "json") stdout = text.jsonReport(changes);
  else if (format === "text") stdout = text.textReport(changes);
  else {
    const markdown = await import("../diff/format-markdown.js");
    stdout = markdown.markdownReport(changes, markdown.reportLinks(reportUrl, outcome.head));
  }
  const failed = !outcome.compared || failOn.failing(changes, names.names).length > 0;
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

export const diffCommand: Command = {
  name: "diff",
  summary: "what a change did to the specification: between a git revision and the working tree, or two revisions",
  usage: [
    "BASE [HEAD] [PATH...] [--format text|markdown|json] [--fail-on NAME,...] [--report-url URL] [--no-cache] [--verbose] [--no-ignore] [--allow-outside] [-C CSV]...",
  ],
  description: `Compare the specification and its traceability between git revision BASE and the
working tree (staged and unstaged changes, and untracked files), or revision HEAD: requirements
and tests added, removed and changed (which fields), code tags added and removed (a tag moved by
edits above it is neither), requirements whose coverage changed, the tagged definitions the
change touched (impact), requirements whose text changed while their tagged code did not
(suspect), and the tests to rerun. Each side is loaded and scanned as it is at its revision,
read from git's objects into the cache folder: the working tree, the index and HEAD are not
touched. PATH is a manifest (kind: project) or a specification file (default: ./speky.yaml, else the
nearest speky.yaml above the current folder inside its git work tree);
the second argument is HEAD unless it names an existing file or folder, or ends in .yaml, .yml,
.toml or .json. --fail-on takes sections (requirements, tests, code_references, coverage,
impact, suspect, rerun), their parts (requirements.added, code_references.removed...) or
added, removed, changed (of every section that has them).
Exit codes: 0 compared, 1 when a --fail-on part is not empty or a side's specifications do not
load (its errors are reported, nothing compared), 2 usage error, a BASE or HEAD that is not a
revision, or a folder outside git.`,
  options: [
    { name: "format", value: "FORMAT", choices: DIFF_FORMATS, help: "text (default, a terminal), markdown (a pull request) or json" },
    { name: "fail-on", value: "NAME,...", repeat: true, help: "exit 1 when one of these parts of the diff is not empty" },
    { name: "report-url", value: "URL", help: "link IDs in the Markdown to the HTML report published at URL" },
    CSV_OPTION,
    NO_CACHE_OPTION,
    VERBOSE_CACHE_OPTION,
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    return print(await diffOutcome(args, context.cwd), context);
  },
};
