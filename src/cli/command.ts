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

/** JUnit XML test results (src/results): shared by check, report, lsp and speky-mcp. */
export const RESULTS_OPTION: OptionSpec = {
  name: "results",
  value: "GLOB",
  repeat: true,
  help: "JUnit XML test results (relative to the current folder), added to the manifests' test_results",
};
