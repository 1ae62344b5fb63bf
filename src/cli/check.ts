// `speky check`: the pre-commit and CI gate. Specs are validated whole; the code sources
// are scanned (only the named files, when file names are given) and a tag naming an
// unknown ID fails the check at the tag's own place.
import path from "node:path";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { MAX_FILE_BYTES } from "../spec/files.js";
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import { loadModel } from "../model/load-model.js";
import { modelProblems } from "../model/problems.js";
import { flag, listOption, parseArgs, stringOption, UsageError, type OptionSpec } from "./args.js";
import { REPORT_FORMATS, renderReport, summarize, type ReportFormat } from "./report.js";

export const CHECK_OPTIONS: OptionSpec[] = [
  { name: "format", value: true, choices: REPORT_FORMATS },
  { name: "strict" },
  { name: "csv", short: "C", value: true, repeat: true },
  { name: "no-cache" },
];

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

export interface CheckOutcome {
  output: string;
  exitCode: number;
}

// speky:speky-ts#CHECK-GATE
export async function runCheck(argv: readonly string[], cwd = process.cwd()): Promise<CheckOutcome> {
  const args = parseArgs(argv, CHECK_OPTIONS);
  if (args.positionals.length === 0) throw new UsageError("check needs at least one manifest or spec file");
  const format = (stringOption(args, "format") ?? "text") as ReportFormat;
  const specPaths = args.positionals.filter((p, i) => isSpecPath(path.resolve(cwd, p), i));
  const sourceFiles = args.positionals.filter((p) => !specPaths.includes(p));
  const onlyFiles = sourceFiles.length > 0 ? sourceFiles.map((f) => path.resolve(cwd, f)) : undefined;

  const { model, diagnostics } = await loadModel(specPaths, { cwd, csvs: listOption(args, "csv"), onlyFiles, cache: !flag(args, "no-cache") });
  const findings: Diagnostic[] = model ? modelProblems(model, diagnostics) : [...diagnostics].sort(compareDiagnostics);
  const files = model ? model.specs.files.length + (model.scanStats?.files ?? 0) : null;
  const summary = summarize(findings, files);
  const failed = summary.errors > 0 || (flag(args, "strict") && summary.warnings > 0);
  return { output: renderReport(format, findings, summary), exitCode: failed ? 1 : 0 };
}
