// `speky check`: the pre-commit and CI gate. Specs are validated whole; the code sources
// are scanned (only the named files, when file names are given) and a tag naming an
// unknown ID fails the check at the tag's own place.

import path from "node:path";
import { flag, listOption, type ParsedArgs, stringOption } from "../cli/args.js";
import {
  type Command,
  type CommandContext,
  CSV_OPTION,
  NO_CACHE_OPTION,
  RESULTS_OPTION,
  VERBOSE_CACHE_OPTION,
  WALK_OPTIONS,
} from "../cli/command.js";
import { DEFAULT_HELP, isDirectory, manifestPaths } from "../cli/default-manifests.js";
import { writeCommandOutput } from "../cli/output-file.js";
import { verboseNote } from "../cli/verbose.js";
import { compareDiagnostics, type Diagnostic, escapeControl } from "../diagnostics.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { MAX_FILE_BYTES } from "../loader/files.js";
import { relativeTo, repositoryRoot, shownDiagnostic } from "../text/shown-paths.js";
import { CHECK_FORMATS, type CheckFormat, renderReport, summarize } from "./check-findings.js";
import { preloadScanCache, useCommandLineShortcuts } from "./one-shot.js";

const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".toml"]);
const KIND_LINE = /^kind\s*[:=]/m;

/** A YAML/TOML file declaring a `kind` (a FIFO or a device named on the command line is none, and must not block us). */
function declaresKind(file: string): boolean {
  if (!SPEC_EXTENSIONS.has(path.extname(file).toLowerCase())) return false;
  const read = readRegularSync(file, { maxBytes: MAX_FILE_BYTES });
  return !isRefusal(read) && KIND_LINE.test(read.bytes.toString("utf8"));
}

interface CheckPaths {
  specPaths: string[];
  sourceFiles: string[];
  /** Spec files named on the command line (folders not), each once: checked when FILEs are named. */
  namedSpecFiles: number;
  /** Which manifests were found, when none was named. */
  note: string | null;
}

/**
 * PATHs, then FILEs: the first positional is a PATH, and so is a later folder or YAML/TOML file
 * declaring a `kind`. After `--` (pre-commit's hook passes the staged files there), every
 * positional is a FILE, those declaring a `kind` loaded as specs too. No PATH: the default
 * manifests (src/cli/default-manifests.ts).
 */
async function checkPaths(args: ParsedArgs, cwd: string): Promise<CheckPaths> {
  const named = args.positionals.slice(0, args.beforeTerminator);
  const files = args.positionals.slice(named.length);
  const isSpec = (p: string, i: number) => i === 0 || declaresKind(path.resolve(cwd, p)) || isDirectory(path.resolve(cwd, p));
  const specs = named.filter(isSpec);
  const staged = new Set(files.filter((p) => declaresKind(path.resolve(cwd, p))));
  const sourceFiles = [...named.filter((p, i) => !isSpec(p, i)), ...files.filter((p) => !staged.has(p))];
  // The manifests first: a staged spec file is then reached through its manifest.
  const { paths, note } = await manifestPaths("check", specs, cwd);
  const specFiles = [...specs, ...staged].map((p) => path.resolve(cwd, p)).filter((p) => !isDirectory(p));
  return { specPaths: [...paths, ...staged], sourceFiles, namedSpecFiles: new Set(specFiles).size, note };
}

// speky:speky-ts#CHECK-GATE
async function runCheck(args: ParsedArgs, context: CommandContext): Promise<{ output: string; exitCode: number }> {
  const { cwd } = context;
  const format = (stringOption(args, "format") ?? "text") as CheckFormat;
  const { specPaths, sourceFiles, namedSpecFiles, note } = await checkPaths(args, cwd);
  if (note) context.stderr(`speky: ${escapeControl(note)}\n`);
  const onlyFiles = sourceFiles.length > 0 ? sourceFiles.map((f) => path.resolve(cwd, f)) : undefined;
  // Paths relative to the working directory; GitHub resolves annotations and SARIF's paths from the repository root.
  const root = format === "github" || format === "sarif" ? repositoryRoot(cwd) : cwd;
  const show = relativeTo(root);

  await useCommandLineShortcuts();
  preloadScanCache(!flag(args, "no-cache"));
  // Loaded on use: every `speky` command imports this registry entry.
  const [{ loadSpecs }, { scanSpecs }, { modelProblems }] = await Promise.all([
    import("../loader/load.js"),
    import("../model/load-model.js"),
    import("../model/problems.js"),
  ]);
  const options = {
    cwd,
    csvs: listOption(args, "csv"),
    onlyFiles,
    cache: !flag(args, "no-cache"),
    allowOutside: flag(args, "allow-outside"),
    ignore: !flag(args, "no-ignore"),
    cacheNote: verboseNote(args),
    cite: (absPath: string) => show(absPath),
    results: listOption(args, "results"),
  };
  const loaded = await loadSpecs(specPaths, options);
  const sorted = (list: readonly Diagnostic[]) => list.map((d) => shownDiagnostic(d, show)).sort(compareDiagnostics);
  let findings: Diagnostic[];
  let files: number | null = null;
  if (loaded.specs) {
    const model = await scanSpecs(loaded.specs, options);
    // A results file is named relative to the current folder, as every path check prints.
    const problems = modelProblems(model, loaded.diagnostics, (f) => show(f.abs));
    if (flag(args, "require-verified")) {
      const { unverifiedProblems } = await import("../model/verification-problems.js");
      problems.push(...unverifiedProblems(model));
    }
    findings = sorted(problems);
    // What was checked: with FILEs named (pre-commit's staged files), those of them scanned or
    // loaded as specs, not every spec file that was validated with them.
    files = (onlyFiles ? namedSpecFiles : model.specs.files.length) + (model.scanStats?.files ?? 0);
  } else {
    // The failed files' own errors lead (src/loader/cause.ts); the tag findings join the rest.
    const leading = loaded.partial?.leading ?? 0;
    const { tagProblemsDespiteErrors } = await import("../model/tags-despite-errors.js");
    const tags = loaded.partial ? await tagProblemsDespiteErrors(loaded.partial, options, {}, show) : [];
    findings = [
      ...loaded.diagnostics.slice(0, leading).map((d) => shownDiagnostic(d, show)),
      ...sorted([...loaded.diagnostics.slice(leading), ...tags]),
    ];
  }
  const summary = summarize(findings, files);
  const failed = summary.errors > 0 || (flag(args, "strict") && summary.warnings > 0);
  return { output: renderReport(format, findings, summary, root), exitCode: failed ? 1 : 0 };
}

export const checkCommand: Command = {
  name: "check",
  summary: "validate the specs and the code tags; exit 1 on findings",
  usage: [
    "[PATH... [FILE...]] [-- FILE...] [--format text|json|github] [--strict] [--no-cache] [--verbose] [--no-ignore] [--allow-outside] [-C CSV]...",
    "[PATH...] [--results GLOB]... [--require-verified] [...]",
    "[PATH...] --format sarif [--output FILE] [...]",
  ],
  description: `Validate the specs and scan the manifests' code_sources; fail on invalid specs
and on code tags naming unknown IDs. PATH is a manifest (kind: project) or a specification
file: the first argument, and any later folder or YAML/TOML file declaring a kind.
${DEFAULT_HELP}
FILEs (e.g. from pre-commit, after --) restrict the scan to those files; the specs are always
validated whole. The summary counts the files checked: with FILEs, the named files scanned for
tags or loaded as specs. When the specs have errors, the code tags of the manifests without errors
are checked all the same (a tag naming an ID of a file that failed to load is not reported).
With test results (--results, or the manifests' test_results), each failed test of a tagged
test is an error at the test's definition (where speky scan places it); --require-verified
also fails for each requirement of the coverage scope that is not verified, naming the test
plans and tests that failed or did not run.
Paths are printed relative to the current folder; with --format github or sarif, relative to
the repository root ($GITHUB_WORKSPACE, else the git work tree), where GitHub places annotations
and code scanning alerts. --format sarif prints a SARIF 2.1.0 log for code scanning, one rule
per kind of finding (docs/ci.md); --output writes the report into FILE instead of stdout.
Exit codes: 0 clean, 1 findings or invalid specs, 2 usage or internal error (or no manifest).`,
  options: [
    { name: "format", value: "FORMAT", choices: CHECK_FORMATS, help: "how findings are printed (default: text)" },
    { name: "output", short: "o", value: "FILE", help: "write the report into FILE instead of stdout" },
    { name: "strict", help: "warnings fail the check too" },
    CSV_OPTION,
    NO_CACHE_OPTION,
    VERBOSE_CACHE_OPTION,
    RESULTS_OPTION,
    { name: "require-verified", help: "fail for every requirement of the coverage scope that is not verified by the results" },
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    const { output, exitCode } = await runCheck(args, context);
    const file = stringOption(args, "output");
    if (file === undefined) context.stdout(output);
    else writeCommandOutput(context.cwd, file, output);
    return exitCode;
  },
};
