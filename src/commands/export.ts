// `speky export [PATH...] [--out FILE]`: the whole model as one JSON document
// (schema/export.schema.json) on stdout, or into FILE by the writers' rule
// (src/fs/write-output.ts: written beside it, then renamed over it; a link planted at FILE is
// replaced, its target untouched; none leading out of the working folder is followed).

import { flag, listOption, type ParsedArgs, stringOption } from "../cli/args.js";
import { type Command, CSV_OPTION, NO_CACHE_OPTION, print, RESULTS_OPTION, WALK_OPTIONS } from "../cli/command.js";
import { DEFAULT_HELP, manifestPaths } from "../cli/default-manifests.js";
import { writeCommandOutput } from "../cli/output-file.js";
import { escapeControl, formatDiagnostic } from "../diagnostics.js";
import { repositoryPaths } from "../model/paths.js";
import { useCommandLineShortcuts } from "./one-shot.js";

// speky:speky-ts#EXPORT-COMMAND
async function runExport(args: ParsedArgs, cwd: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { paths, note } = await manifestPaths("export", args.positionals, cwd);
  const said = note ? `speky: ${escapeControl(note)}\n` : "";
  await useCommandLineShortcuts();
  const [{ loadModel }, { exportedVerification, formatExport }] = await Promise.all([
    import("../model/load-model.js"),
    import("../export/export-document.js"),
  ]);
  const { model, diagnostics } = await loadModel(paths, {
    cwd,
    csvs: listOption(args, "csv"),
    cache: !flag(args, "no-cache"),
    allowOutside: flag(args, "allow-outside"),
    ignore: !flag(args, "no-ignore"),
    results: listOption(args, "results"),
  });
  if (!model) {
    const errors = diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join("");
    return { stdout: "", stderr: `${said}${errors}speky: the specifications have errors; nothing exported\n`, exitCode: 1 };
  }
  const json = formatExport(model, diagnostics, {
    verification: exportedVerification(model),
    repositoryPath: repositoryPaths(model, cwd),
  });
  const out = stringOption(args, "out");
  if (out === undefined) return { stdout: json, stderr: said, exitCode: 0 };
  writeCommandOutput(cwd, out, json);
  return { stdout: "", stderr: said, exitCode: 0 };
}

export const exportCommand: Command = {
  name: "export",
  summary: "write the whole model as one JSON document",
  usage: ["[PATH...] [--out FILE] [--results GLOB]... [--no-cache] [--no-ignore] [--allow-outside] [-C CSV]..."],
  description: `Print the whole model as JSON (schema/export.schema.json): manifests, requirements and
tests with their links and coverage bucket, comments, code references, the coverage of the
manifests' coverage_categories and the problems, and with test results (--results, or the
manifests' test_results) the verification of each test plan and requirement; --out writes it
into FILE instead. Without
${DEFAULT_HELP} The same tree gives the same bytes.
Exit codes: 0 written, 1 when the specs do not load (nothing written), 2 usage or output error.`,
  options: [
    { name: "out", short: "o", value: "FILE", help: "write the document into FILE instead of stdout" },
    CSV_OPTION,
    NO_CACHE_OPTION,
    RESULTS_OPTION,
    ...WALK_OPTIONS,
  ],
  async run(args, context) {
    return print(await runExport(args, context.cwd), context);
  },
};
