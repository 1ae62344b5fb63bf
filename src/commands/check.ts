// `speky check`: the pre-commit and CI gate. Specs are validated whole; the code sources
// are scanned (only the named files, when file names are given) and a tag naming an
// unknown ID fails the check at the tag's own place.

import path from "node:path";
import { flag, listOption, type ParsedArgs, stringOption, UsageError } from "../cli/args.js";
import { type Command, RESULTS_OPTION, WALK_OPTIONS } from "../cli/command.js";
import { verboseNote } from "../cli/verbose.js";
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { MAX_FILE_BYTES } from "../loader/files.js";
import { CHECK_FORMATS, type CheckFormat, renderReport, summarize } from "./check-findings.js";
import { useCommandLineShortcuts } from "./one-shot.js";

const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".toml"]);
const KIND_LINE = /^kind\s*[:=]/m;

/** A positional is a spec when it is the first one, or a YAML/TOML file declaring a `kind`. */
function isSpecPath(file: string, index: number): boolean {
  if (index === 0) return true;
  if (!SPEC_EXTENSIONS.has(path.extname(file).toLowerCase())) return false;
  // A FIFO or a device named on the command line is no spec (and must not block us).
  const read = readRegularSync(file, { maxBytes: MAX_FILE_BYTES });
  return !isRefusal(read) && KIND_LINE.test(read.bytes.toString("utf8"));
}

// speky:speky-ts#CHECK-GATE
async function runCheck(args: ParsedArgs, cwd: string): Promise<{ output: string; exitCode: number }> {
  if (args.positionals.length === 0) throw new UsageError("check needs at least one manifest or spec file");
  const format = (stringOption(args, "format") ?? "text") as CheckFormat;
  const specPaths = args.positionals.filter((p, i) => isSpecPath(path.resolve(cwd, p), i));
  const sourceFiles = args.positionals.filter((p) => !specPaths.includes(p));
  const onlyFiles = sourceFiles.length > 0 ? sourceFiles.map((f) => path.resolve(cwd, f)) : undefined;

  await useCommandLineShortcuts();
  // Loaded on use: every `speky` command imports this registry entry.
  const [{ loadModel }, { modelProblems }] = await Promise.all([import("../model/load-model.js"), import("../model/problems.js")]);
  const { model, diagnostics } = await loadModel(specPaths, {
    cwd,
    csvs: listOption(args, "csv"),
    onlyFiles,
    cache: !flag(args, "no-cache"),
    allowOutside: flag(args, "allow-outside"),
    ignore: !flag(args, "no-ignore"),
    cacheNote: verboseNote(args),
    results: listOption(args, "results"),
  });
  const findings: Diagnostic[] = model ? modelProblems(model, diagnostics) : [...diagnostics]; // the loader's order: causes first
  if (model && flag(args, "require-verified")) {
    const { unverifiedProblems } = await import("../model/verification-problems.js");
    findings.push(...unverifiedProblems(model));
    findings.sort(compareDiagnostics);
  }
  const files = model ? model.specs.files.length + (model.scanStats?.files ?? 0) : null;
  const summary = summarize(findings, files);
  const failed = summary.errors > 0 || (flag(args, "strict") && summary.warnings > 0);
  return { output: renderReport(format, findings, summary), exitCode: failed ? 1 : 0 };
}

export const checkCommand: Command = {
  name: "check",
  summary: "validate the specs and the code tags; exit 1 on findings",
  usage: [
    "PATH... [FILE...] [--format text|json|github] [--strict] [--no-cache] [--verbose] [--no-ignore] [--allow-outside] [-C CSV]...",
    "PATH... [--results GLOB]... [--require-verified] [...]",
  ],
  description: `Validate the specs and scan the manifests' code_sources; fail on invalid specs
and on code tags naming unknown IDs. PATH is a manifest (kind: project) or a specification
file. FILEs (e.g. from pre-commit) restrict the scan to those files; the specs are always
validated whole. With test results (--results, or the manifests' test_results), each failed
test of a tagged test is an error at its tag; --require-verified also fails for each
requirement of the coverage scope that is not verified.
Exit codes: 0 clean, 1 findings or invalid specs, 2 usage or internal error.`,
  options: [
    { name: "format", value: "FORMAT", choices: CHECK_FORMATS, help: "how findings are printed (default: text)" },
    { name: "strict", help: "warnings fail the check too" },
    { name: "csv", short: "C", value: "CSV", repeat: true, help: "an extra comment file" },
    { name: "no-cache", help: "scan every file afresh" },
    { name: "verbose", help: "say on stderr why the scan cache was not used" },
    RESULTS_OPTION,
    { name: "require-verified", help: "fail for every requirement of the coverage scope that is not verified by the results" },
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    const { output, exitCode } = await runCheck(args, context.cwd);
    context.stdout(output);
    return exitCode;
  },
};
