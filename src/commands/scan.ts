// `speky scan`: the code references as JSON, for other tools. Either the code sources of
// manifests, or (with --project) arbitrary files and folders under one project name.

import { flag, listOption, type ParsedArgs, parseArgs, stringOption } from "../cli/args.js";
import { type Command, CSV_OPTION, commandOptions, NO_CACHE_OPTION, print, VERBOSE_CACHE_OPTION, WALK_OPTIONS } from "../cli/command.js";
import { DEFAULT_HELP, manifestPaths } from "../cli/default-manifests.js";
import { writeCommandOutput } from "../cli/output-file.js";
import { verboseNote } from "../cli/verbose.js";
import { compareDiagnostics, escapeControl, formatDiagnostic, relocated } from "../diagnostics.js";
import { type RepositoryPaths, repositoryPaths } from "../model/paths.js";
import type { ScanResult } from "../scan/types.js";
import { relativeTo, shownDiagnostic } from "../text/shown-paths.js";
import { preloadScanCache, useCommandLineShortcuts } from "./one-shot.js";

export interface ScanOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

// speky:speky-ts#SCAN-COMMAND
async function scanOutcome(args: ParsedArgs, cwd: string): Promise<ScanOutcome> {
  const project = stringOption(args, "project");
  // No PATH: the current folder with --project, else the default manifests.
  const manifests = project === undefined ? await manifestPaths("scan", args.positionals, cwd) : null;
  const positionals = manifests?.paths ?? (args.positionals.length > 0 ? args.positionals : ["."]);
  const note = manifests?.note ? `speky: ${escapeControl(manifests.note)}\n` : "";
  // Loaded on use (every `speky` command imports this registry entry); with --project, no
  // spec or model module at all.
  const [{ scanPaths }] = await Promise.all([import("../scan/scan.js"), useCommandLineShortcuts()]);
  let result: ScanResult;
  let repositoryPath: RepositoryPaths | undefined;
  if (project !== undefined) {
    const walk = { allowOutside: flag(args, "allow-outside"), ignore: !flag(args, "no-ignore") };
    result = await scanPaths(project, positionals, cwd, {
      cache: !flag(args, "no-cache"),
      cacheNote: verboseNote(args),
      eagerWorkers: true,
      ...walk,
    });
  } else {
    preloadScanCache(!flag(args, "no-cache"));
    const [{ loadModel }, { danglingDiagnostics }] = await Promise.all([import("../model/load-model.js"), import("../model/problems.js")]);
    // Text on stderr names files relative to the working directory; the JSON keeps the model's paths.
    const show = relativeTo(cwd);
    const { model, diagnostics } = await loadModel(positionals, {
      cwd,
      cite: (absPath) => show(absPath),
      csvs: listOption(args, "csv"),
      cache: !flag(args, "no-cache"),
      allowOutside: flag(args, "allow-outside"),
      ignore: !flag(args, "no-ignore"),
      cacheNote: verboseNote(args),
    });
    if (!model) {
      const lines = diagnostics.map((d) => `${formatDiagnostic(shownDiagnostic(d, show))}\n`).join("");
      return { stdout: "", stderr: note + lines, exitCode: 1 };
    }
    // A tag naming no loaded ID stays a reference, flagged here (check fails on it).
    const dangling = danglingDiagnostics(model).map((d) => relocated(d, { ...d, severity: "warning" as const }));
    result = {
      references: [...model.codeReferences],
      diagnostics: [...model.scanDiagnostics, ...dangling].sort(compareDiagnostics),
      stats: model.scanStats ?? { files: 0, files_with_tags: 0, tags: 0, ms: 0 },
    };
    repositoryPath = repositoryPaths(model, cwd);
  }
  const json = (await import("../scan/output.js")).formatScanOutput(result, repositoryPath);
  const output = stringOption(args, "output");
  if (output === undefined) return { stdout: json, stderr: note, exitCode: 0 };
  writeCommandOutput(cwd, output, json);
  return { stdout: "", stderr: note, exitCode: 0 };
}

export const scanCommand: Command = {
  name: "scan",
  summary: "print the code references as JSON",
  usage: [
    "[PATH...] [--output FILE] [--no-cache] [--verbose] [--no-ignore] [--allow-outside] [-C CSV]...",
    "--project NAME [DIR|FILE...] [--output FILE] [--no-cache] [--verbose] [--no-ignore] [--allow-outside]",
  ],
  description: `Print the code references of the manifests' code_sources as JSON (schema:
schema/scan.schema.json). PATH is a manifest (kind: project) or a specification file.
${DEFAULT_HELP}
With --project, scan arbitrary files and folders (default: the current folder) for tags of
project NAME instead. The JSON keeps the model's paths, as the MCP tools answer them: a
reference's file is relative to the root of its project's manifest (speky's code references),
and its path relative to the repository root (the git work tree, else the current folder);
messages on stderr name files relative to the current folder.
Exit codes: 0 done, 1 when the specs do not load, 2 usage error (or no manifest) or unwritable
output.`,
  options: [
    { name: "output", short: "o", value: "FILE", help: "write the JSON to FILE instead of stdout" },
    { name: "project", value: "NAME", help: "scan the given paths for tags of project NAME" },
    CSV_OPTION,
    NO_CACHE_OPTION,
    VERBOSE_CACHE_OPTION,
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    return print(await scanOutcome(args, context.cwd), context);
  },
};

/** `speky scan ARGV...` run in-process, its output collected (for tests and tools). */
export async function runScan(argv: readonly string[], cwd = process.cwd()): Promise<ScanOutcome> {
  return scanOutcome(parseArgs(argv, commandOptions(scanCommand)), cwd);
}
