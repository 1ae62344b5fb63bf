// speky's own command line (python/speky/main.py), parsed as its argparse parser parses it:
// `FILE... [-o|--output-folder PATH] [-C|--comment-csv FILE]... [-l|--logging-config FILE]
// [-c|--check-only] [--sort|--no-sort] [-v|--version] [-h|--help]`, long options by any
// unambiguous prefix (`--output`), `--name=value`, `-oPATH`, `-o=PATH`, grouped flags (`-cv`)
// and `--`. One difference: a FILE may follow an option (argparse takes FILE... once).
import { quote } from "../quote.js";
import { UsageError } from "./args.js";

export interface SpekyArgs {
  paths: string[];
  outputFolder: string;
  commentCsvs: string[];
  loggingConfig: string | null;
  checkOnly: boolean;
  sort: boolean;
  /** -h or -v seen: print that and exit 0. */
  answer: "help" | "version" | null;
}

type Action = "help" | "version" | "output-folder" | "comment-csv" | "logging-config" | "check-only" | "sort" | "no-sort";

const LONG: Record<string, Action> = {
  "--help": "help",
  "--version": "version",
  "--output-folder": "output-folder",
  "--comment-csv": "comment-csv",
  "--logging-config": "logging-config",
  "--check-only": "check-only",
  "--sort": "sort",
  "--no-sort": "no-sort",
};

const SHORT: Record<string, Action> = {
  h: "help",
  v: "version",
  o: "output-folder",
  C: "comment-csv",
  l: "logging-config",
  c: "check-only",
};

const TAKES_VALUE = new Set<Action>(["output-folder", "comment-csv", "logging-config"]);

/** A long option by its full name or an unambiguous prefix, as argparse allows. */
function longAction(name: string): Action {
  if (Object.hasOwn(LONG, name)) return LONG[name];
  const matches = Object.keys(LONG).filter((full) => full.startsWith(name));
  if (matches.length === 1) return LONG[matches[0]];
  if (matches.length > 1) throw new UsageError(`ambiguous option: ${quote(name)} could match ${matches.join(", ")}`);
  throw new UsageError(`unrecognized arguments: ${quote(name)}`);
}

/** A word argparse would read as an option rather than a value. */
const looksLikeOption = (word: string) => word.startsWith("-") && word !== "-" && !/^-\d+$|^-\d*\.\d+$/.test(word);

// speky:speky-ts#SPEKY-CLI-PARSE
export function parseSpekyArgs(argv: readonly string[]): SpekyArgs {
  const args: SpekyArgs = {
    paths: [],
    outputFolder: "markdown",
    commentCsvs: [],
    loggingConfig: null,
    checkOnly: false,
    sort: true,
    answer: null,
  };
  const apply = (action: Action, shown: string, value: string | undefined): boolean => {
    if (!TAKES_VALUE.has(action) && value !== undefined)
      throw new UsageError(`argument ${shown}: ignored explicit argument ${quote(value)}`);
    switch (action) {
      case "help":
      case "version":
        args.answer = action;
        return true;
      case "check-only":
        args.checkOnly = true;
        return false;
      case "sort":
      case "no-sort":
        args.sort = action === "sort";
        return false;
      default:
        if (value === undefined) throw new UsageError(`argument ${shown}: expected one argument`);
        if (action === "output-folder") args.outputFolder = value;
        else if (action === "comment-csv") args.commentCsvs.push(value);
        else args.loggingConfig = value;
        return false;
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const next = () => (i + 1 < argv.length && !looksLikeOption(argv[i + 1]) ? argv[++i] : undefined);
    if (word === "--") {
      args.paths.push(...argv.slice(i + 1));
      break;
    }
    if (!looksLikeOption(word)) {
      args.paths.push(word);
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const name = eq < 0 ? word : word.slice(0, eq);
      const action = longAction(name);
      const value = eq >= 0 ? word.slice(eq + 1) : TAKES_VALUE.has(action) ? next() : undefined;
      if (apply(action, name, value)) return args;
      continue;
    }
    // Short options: -o PATH, -oPATH, -o=PATH, and flags grouped (-cv).
    for (let j = 1; j < word.length; j++) {
      const letter = word[j];
      if (!Object.hasOwn(SHORT, letter)) throw new UsageError(`unrecognized arguments: ${quote(word)}`);
      const action = SHORT[letter];
      if (TAKES_VALUE.has(action)) {
        const rest = word.slice(j + 1);
        const value = rest === "" ? next() : rest.startsWith("=") && j === 1 ? rest.slice(1) : rest;
        if (apply(action, `-${letter}`, value)) return args;
        break;
      }
      if (j === 1 && word[2] === "=") throw new UsageError(`argument -${letter}: ignored explicit argument ${quote(word.slice(3))}`);
      if (apply(action, `-${letter}`, undefined)) return args;
    }
  }
  if (args.paths.length === 0) throw new UsageError("the following arguments are required: FILE");
  return args;
}

/** `speky FILE --help`: argparse's text for speky's parser, with a word on the rest of speky-ts. */
export function spekyHelp(program: string): string {
  return `usage: ${program} [-h] [-v] [-o PATH] [-C FILE] [-l LOGGING_CONFIG] [-c]
             [--sort | --no-sort]
             FILE [FILE ...]

Write your project's specification in YAML, display it as a static website

positional arguments:
  FILE                  The path to a YAML or TOML file containing
                        requirements, tests or comments

options:
  -h, --help            show this help message and exit
  -v, --version         show program's version number and exit
  -o PATH, --output-folder PATH
                        The folder where to place all generated files
  -C FILE, --comment-csv FILE
                        The path to a CSV file containing comments
  -l LOGGING_CONFIG, --logging-config LOGGING_CONFIG
                        Specify a custom config file of the logging library
  -c, --check-only      Validate input files but do not output any markdown
  --sort, --no-sort     Sort requirements by ID. If false, the order of files
                        passed as positionals is significant

This is speky's command line, as speky-ts runs it: the same MyST pages in PATH
(default markdown/), exit 0 when written or valid, 1 when invalid. PATH must be
absent, empty or a folder of speky's pages. speky-ts's own commands (check,
scan, report, lsp, export, diff): ${program} --help.
`;
}
