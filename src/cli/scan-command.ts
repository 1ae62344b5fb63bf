// `speky scan`: the code references as JSON, for other tools. Either the code sources of
// manifests, or (with --project) arbitrary files and folders under one project name.
import { writeFile } from "node:fs/promises";
import { compareDiagnostics, formatDiagnostic } from "../diagnostics.js";
import { loadModel } from "../model/load-model.js";
import { danglingDiagnostics } from "../model/problems.js";
import { formatScanOutput } from "../scan/output.js";
import { scanPaths } from "../scan/scan.js";
import type { ScanResult } from "../scan/types.js";
import { flag, listOption, parseArgs, stringOption, UsageError, type OptionSpec } from "./args.js";

export const SCAN_OPTIONS: OptionSpec[] = [
  { name: "output", short: "o", value: true },
  { name: "project", value: true },
  { name: "csv", short: "C", value: true, repeat: true },
  { name: "no-cache" },
];

export interface ScanOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

// speky:speky-ts#SCAN-COMMAND
export async function runScan(argv: readonly string[], cwd = process.cwd()): Promise<ScanOutcome> {
  const args = parseArgs(argv, SCAN_OPTIONS);
  if (args.positionals.length === 0) throw new UsageError("scan needs at least one manifest, spec file or (with --project) path");
  const project = stringOption(args, "project");
  let result: ScanResult;
  if (project !== undefined) {
    result = await scanPaths(project, args.positionals, cwd, { cache: !flag(args, "no-cache") });
  } else {
    const { model, diagnostics } = await loadModel(args.positionals, { cwd, csvs: listOption(args, "csv"), cache: !flag(args, "no-cache") });
    if (!model) {
      return { stdout: "", stderr: diagnostics.map((d) => formatDiagnostic(d) + "\n").join(""), exitCode: 1 };
    }
    // A tag naming no loaded ID stays a reference, flagged here (check fails on it).
    const dangling = danglingDiagnostics(model).map((d) => ({ ...d, severity: "warning" as const }));
    result = {
      references: [...model.codeReferences],
      diagnostics: [...model.scanDiagnostics, ...dangling].sort(compareDiagnostics),
      stats: model.scanStats ?? { files: 0, files_with_tags: 0, tags: 0, ms: 0 },
    };
  }
  const json = formatScanOutput(result);
  const output = stringOption(args, "output");
  if (output === undefined) return { stdout: json, stderr: "", exitCode: 0 };
  await writeFile(output, json);
  return { stdout: "", stderr: "", exitCode: 0 };
}
