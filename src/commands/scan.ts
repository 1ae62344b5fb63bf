// `speky scan`: the code references as JSON, for other tools. Either the code sources of
// manifests, or (with --project) arbitrary files and folders under one project name.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { CommandError, flag, listOption, type ParsedArgs, parseArgs, stringOption, UsageError } from "../cli/args.js";
import { type Command, commandOptions, WALK_OPTIONS } from "../cli/command.js";
import { fileErrorReason } from "../cli/file-error.js";
import { verboseNote } from "../cli/verbose.js";
import { compareDiagnostics, formatDiagnostic } from "../diagnostics.js";
import { quote } from "../quote.js";
import type { ScanResult } from "../scan/types.js";
import { useCommandLineShortcuts } from "./one-shot.js";

export interface ScanOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

// speky:speky-ts#SCAN-COMMAND
async function scanOutcome(args: ParsedArgs, cwd: string): Promise<ScanOutcome> {
  if (args.positionals.length === 0) throw new UsageError("scan needs at least one manifest, spec file or (with --project) path");
  const project = stringOption(args, "project");
  // Loaded on use (every `speky` command imports this registry entry); with --project, no
  // spec or model module at all.
  const [{ scanPaths }] = await Promise.all([import("../scan/scan.js"), useCommandLineShortcuts()]);
  let result: ScanResult;
  if (project !== undefined) {
    const walk = { allowOutside: flag(args, "allow-outside"), ignore: !flag(args, "no-ignore") };
    result = await scanPaths(project, args.positionals, cwd, {
      cache: !flag(args, "no-cache"),
      cacheNote: verboseNote(args),
      eagerWorkers: true,
      ...walk,
    });
  } else {
    const [{ loadModel }, { danglingDiagnostics }] = await Promise.all([import("../model/load-model.js"), import("../model/problems.js")]);
    const { model, diagnostics } = await loadModel(args.positionals, {
      cwd,
      csvs: listOption(args, "csv"),
      cache: !flag(args, "no-cache"),
      allowOutside: flag(args, "allow-outside"),
      ignore: !flag(args, "no-ignore"),
      cacheNote: verboseNote(args),
    });
    if (!model) {
      return { stdout: "", stderr: diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join(""), exitCode: 1 };
    }
    // A tag naming no loaded ID stays a reference, flagged here (check fails on it).
    const dangling = danglingDiagnostics(model).map((d) => ({ ...d, severity: "warning" as const }));
    result = {
      references: [...model.codeReferences],
      diagnostics: [...model.scanDiagnostics, ...dangling].sort(compareDiagnostics),
      stats: model.scanStats ?? { files: 0, files_with_tags: 0, tags: 0, ms: 0 },
    };
  }
  const json = (await import("../scan/output.js")).formatScanOutput(result);
  const output = stringOption(args, "output");
  if (output === undefined) return { stdout: json, stderr: "", exitCode: 0 };
  try {
    await writeFile(path.resolve(cwd, output), json);
  } catch (error) {
    // speky:speky-ts#INSTALL-OUTPUT-ERROR
    throw new CommandError(`cannot write ${quote(output)}: ${fileErrorReason(error)}`);
  }
  return { stdout: "", stderr: "", exitCode: 0 };
}

export const scanCommand: Command = {
  name: "scan",
  summary: "print the code references as JSON",
  usage: [
    "PATH... [--output FILE] [--no-cache] [--verbose] [--no-ignore] [--allow-outside] [-C CSV]...",
    "--project NAME DIR|FILE... [--output FILE] [--no-cache] [--verbose] [--no-ignore] [--allow-outside]",
  ],
  description: `Print the code references of the manifests' code_sources as JSON (schema:
schema/scan.schema.json). PATH is a manifest (kind: project) or a specification file. With
--project, scan arbitrary files and folders for tags of project NAME instead.
Exit codes: 0 done, 1 when the specs do not load, 2 usage error or unwritable output.`,
  options: [
    { name: "output", short: "o", value: "FILE", help: "write the JSON to FILE instead of stdout" },
    { name: "project", value: "NAME", help: "scan the given paths for tags of project NAME" },
    { name: "csv", short: "C", value: "CSV", repeat: true, help: "an extra comment file" },
    { name: "no-cache", help: "scan every file afresh" },
    { name: "verbose", help: "say on stderr why the scan cache was not used" },
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    const { stdout, stderr, exitCode } = await scanOutcome(args, context.cwd);
    context.stdout(stdout);
    context.stderr(stderr);
    return exitCode;
  },
};

/** `speky scan ARGV...` run in-process, its output collected (for tests and tools). */
export async function runScan(argv: readonly string[], cwd = process.cwd()): Promise<ScanOutcome> {
  return scanOutcome(parseArgs(argv, commandOptions(scanCommand)), cwd);
}
