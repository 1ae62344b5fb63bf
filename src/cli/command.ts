// What a `speky` subcommand is: one declarative entry. The registry (commands.ts) lists them;
// main.ts parses, answers --help from the entry, runs it and maps the outcome to an exit code.
import { formatOptions, HELP_OPTION, type OptionSpec, type ParsedArgs } from "./args.js";

export interface CommandContext {
  /** Folder relative paths on the command line are resolved from. */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface Command {
  name: string;
  /** One line for `speky --help`. */
  summary: string;
  /** Usage forms, each without the leading `speky NAME `. */
  usage: readonly string[];
  /** Paragraphs printed after the usage in `speky NAME --help`. */
  description: string;
  /** Options besides --help, which every command gets. */
  options: readonly OptionSpec[];
  /** Returns the exit code: 0 clean, 1 findings. Throws UsageError / CommandError for 2. */
  run(args: ParsedArgs, context: CommandContext): Promise<number>;
}

/** The options a command's arguments are parsed with. */
export function commandOptions(command: Command): OptionSpec[] {
  return [...command.options, HELP_OPTION];
}

export function commandHelp(program: string, command: Command): string {
  const usage = command.usage.map((u) => `  ${program} ${command.name} ${u}\n`).join("");
  return (
    `${program} ${command.name}: ${command.summary}\n\nUsage:\n${usage}\n${command.description.trimEnd()}\n\n` +
    `Options:\n${formatOptions(commandOptions(command))}`
  );
}

/** Which files a walk reaches (src/fs/globs.ts): shared by check, scan and speky-mcp. */
export const WALK_OPTIONS: OptionSpec[] = [
  { name: "no-ignore", help: "also scan code sources that .gitignore/.ignore rules exclude" },
  {
    name: "allow-outside",
    help: "trust the tree: let its paths, globs and links reach outside its git work tree (outside git, the manifest's folder)",
  },
];

/** The options of every command that loads a model: an extra comment file, no cache. */
export const CSV_OPTION: OptionSpec = { name: "csv", short: "C", value: "CSV", repeat: true, help: "an extra comment file" };
export const NO_CACHE_OPTION: OptionSpec = { name: "no-cache", help: "scan every file afresh" };
export const VERBOSE_CACHE_OPTION: OptionSpec = { name: "verbose", help: "say on stderr why the scan cache was not used" };

/** What a command's run prints and exits with. */
export interface Printed {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

/** Prints a command's outcome; its exit code. */
export function print(outcome: Printed, context: CommandContext): number {
  context.stdout(outcome.stdout);
  if (outcome.stderr) context.stderr(outcome.stderr);
  return outcome.exitCode;
}

/** JUnit XML test results (src/results): shared by check, report, lsp and speky-mcp. */
export const RESULTS_OPTION: OptionSpec = {
  name: "results",
  value: "GLOB",
  repeat: true,
  help: "JUnit XML test results (relative to the current folder), added to the manifests' test_results",
};
