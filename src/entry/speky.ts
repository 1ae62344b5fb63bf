// Entry of the `speky` binary: dispatch through the command registry, --help for the program
// and every command, and the exit-code contract (0 clean, 1 findings or load errors, 2 usage
// or internal error).

import { CommandError, flag, parseArgs, UsageError } from "../cli/args.js";
import { type Command, commandHelp, commandOptions } from "../cli/command.js";
import { fileErrorReason } from "../cli/file-error.js";
import { COMMANDS, loadCommands } from "../commands/index.js";
import { exitOnceDone } from "../commands/one-shot.js";
import { escapeControl } from "../diagnostics.js";
import { quote } from "../quote.js";
import { VERSION } from "../version.js";

const PROGRAM = "speky";

function programHelp(commands: readonly Command[]): string {
  const usage = commands.map((c) => `${c.usage.map((u) => `  ${PROGRAM} ${c.name} ${u}\n`).join("")}      ${c.summary}\n`).join("");
  return `${PROGRAM} ${VERSION}: requirements traceability for polyglot code bases

Usage:
${usage}  ${PROGRAM} COMMAND --help
      the usage and options of COMMAND
  ${PROGRAM} FILE... [-o DIR] [-C CSV]... [-c] [--sort|--no-sort] [-l FILE] [-v]
      speky's own command line: its MyST pages into DIR (default markdown/),
      or --check-only; exit 0 written or valid, 1 invalid (${PROGRAM} FILE --help)
  ${PROGRAM} --help | --version

PATH is a manifest (kind: project) or a specification file; without PATH, check, report,
scan and export load ./speky.yaml, else the nearest speky.yaml above the current folder up
to the root of its git work tree, else the manifests found under the current folder (diff and
speky-mcp: ./speky.yaml or the nearest above). Scan results are cached in $SPEKY_CACHE_DIR (default: $XDG_CACHE_HOME/speky-ts
or ~/.cache/speky-ts); --no-cache scans every file afresh.
Exit codes: 0 clean, 1 findings or invalid specs, 2 usage or internal error.
`;
}

const findCommand = (name: string) => COMMANDS.find((c) => c.name === name)?.load();

// speky:speky-ts#INSTALL-CLI-HELP
async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError(`missing command (${COMMANDS.map((c) => c.name).join(", ")})`);
  if (name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    if (topic === undefined) {
      process.stdout.write(programHelp(await loadCommands()));
      return 0;
    }
    const command = await findCommand(topic);
    if (!command) throw new UsageError(`unknown command ${quote(topic)}`);
    process.stdout.write(commandHelp(PROGRAM, command));
    return 0;
  }
  if (name === "--version" || name === "-V" || name === "-v") {
    process.stdout.write(`${PROGRAM} ${VERSION}\n`);
    return 0;
  }
  const command = await findCommand(name);
  // Sub-commands first; any other first word is speky's own command line (`speky FILE...`).
  if (!command) return (await import("../commands/speky-pages.js")).runSpekyCommandLine(argv, context(), PROGRAM);
  const args = parseArgs(rest, commandOptions(command));
  if (flag(args, "help")) {
    process.stdout.write(commandHelp(PROGRAM, command));
    return 0;
  }
  return command.run(args, context());
}

const context = () => ({
  cwd: process.cwd(),
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
});

export async function main(argv: string[]): Promise<void> {
  // The reader went away (`speky check | head`): nothing is left to say to it; leave quietly
  // with the exit code so far rather than die on an unhandled EPIPE. Any other failure to
  // write the output (a full disk) is said in one line, exit 2.
  // speky:speky-ts#INSTALL-OUTPUT-ERROR
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") {
      process.stderr.write(`${PROGRAM}: cannot write the output: ${escapeControl(fileErrorReason(error))}\n`);
      process.exitCode = 2;
    }
    process.exit();
  });
  try {
    process.exitCode = await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${PROGRAM}: ${escapeControl(error.message)}\nTry '${PROGRAM} --help'.\n`);
    } else if (error instanceof CommandError) {
      process.stderr.write(`${PROGRAM}: ${escapeControl(error.message)}\n`);
    } else {
      // A real internal bug: keep the stack, it is what a bug report needs.
      // The message may quote input: escaped; the stack frames after it are ours.
      const head = String(error);
      const stack = error instanceof Error && error.stack?.startsWith(head) ? error.stack.slice(head.length) : "";
      process.stderr.write(`${PROGRAM}: internal error: ${escapeControl(head)}${stack}\n`);
    }
    process.exitCode = 2;
  }
}

await main(process.argv.slice(2));
await exitOnceDone();
