// `speky FILE... [-o DIR] [-C CSV]... [-c] [--sort|--no-sort] [-l FILE] [-v]`: speky's own
// command line, for the Makefiles and CI jobs written for it. It loads the same model as every
// other command and writes the MyST pages speky's generator writes (src/myst), into DIR only.
// Exit codes are speky's: 0 written (or valid, with --check-only), 1 invalid specs or an
// unusable output folder, 2 usage.
// speky:speky-ts#SPEKY-CLI

import fs from "node:fs";
import path from "node:path";
import type { CommandContext } from "../cli/command.js";
import { fileErrorReason } from "../cli/file-error.js";
import { parseSpekyArgs, spekyHelp } from "../cli/speky-args.js";
import { type Diagnostic, escapeControl, formatDiagnostic } from "../diagnostics.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { quote } from "../quote.js";
import { relativeTo, shownDiagnostic } from "../text/shown-paths.js";
import { VERSION } from "../version.js";
import { COMMANDS } from "./index.js";
import { useCommandLineShortcuts } from "./one-shot.js";

/** A logging configuration is a small YAML file; speky fails when it cannot read it. */
const MAX_LOGGING_CONFIG_BYTES = 1024 * 1024;

export async function runSpekyCommandLine(argv: readonly string[], context: CommandContext, program: string): Promise<number> {
  const args = parseSpekyArgs(argv);
  if (args.answer === "help") {
    context.stdout(spekyHelp(program));
    return 0;
  }
  if (args.answer === "version") {
    context.stdout(`${program} ${VERSION}\n`);
    return 0;
  }
  if (args.loggingConfig !== null) {
    // Read as speky reads it (a missing file fails the run); its levels and handlers are
    // Python logging's, which speky-ts does not have: diagnostics go to stderr as always.
    const read = readRegularSync(path.resolve(context.cwd, args.loggingConfig), { maxBytes: MAX_LOGGING_CONFIG_BYTES });
    if (isRefusal(read)) {
      context.stderr(`${program}: cannot read the logging configuration ${quote(args.loggingConfig)}: ${read.problem}\n`);
      return 1;
    }
  }
  // speky stops at the first FILE it cannot open; a word that is no file may be a mistyped command.
  const missing = [...args.paths, ...args.commentCsvs].find((p) => !fs.existsSync(path.resolve(context.cwd, p)));
  if (missing !== undefined) {
    const command = /^[a-z][a-z-]*$/.test(missing) ? ` (${program} COMMAND is one of ${COMMANDS.map((c) => c.name).join(", ")})` : "";
    context.stderr(`${program}: no such file ${quote(missing)}${command}\n`);
    return 1;
  }
  // Loaded on use, as every command's modules.
  const [{ loadModel }, { modelProblems }, { mystPages }, { writePages, PagesOutputError }] = await Promise.all([
    import("../model/load-model.js"),
    import("../model/problems.js"),
    import("../myst/site-pages.js"),
    import("../myst/output.js"),
    useCommandLineShortcuts(),
  ]);
  // speky:speky-ts#CLI-SHOWN-PATHS
  // Messages name files relative to the current folder (speky's name them relative to each
  // manifest's root, which a monorepo's projects share): every one opens from where it ran.
  const show = relativeTo(context.cwd);
  const lines = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => `${formatDiagnostic(shownDiagnostic(d, show))}\n`).join("");
  const { model, diagnostics } = await loadModel(args.paths, { cwd: context.cwd, csvs: args.commentCsvs, cite: (abs) => show(abs) });
  if (!model) {
    context.stderr(`${lines(diagnostics)}${program}: the specifications have errors; nothing written\n`);
    return 1;
  }
  // speky warns about code tags naming unknown IDs and goes on: so do we.
  const problems = modelProblems(model, diagnostics).map((d) => ({ ...shownDiagnostic(d, show), severity: "warning" as const }));
  context.stderr(lines(problems));
  if (args.checkOnly) return 0;
  const pages = mystPages(model, args.sort);
  try {
    writePages(pages, args.outputFolder, context.cwd);
  } catch (error) {
    // speky ends with 1 on an OSError: an unusable folder is not a usage error here.
    let message: string;
    if (error instanceof PagesOutputError) message = error.message;
    else if (typeof (error as NodeJS.ErrnoException)?.code === "string") {
      message = `cannot write the pages into ${quote(args.outputFolder)}: ${fileErrorReason(error)}`;
    } else throw error;
    context.stderr(`${program}: ${escapeControl(message)}\n`);
    return 1;
  }
  return 0;
}
