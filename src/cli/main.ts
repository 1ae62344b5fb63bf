// Entry of the `speky` binary: dispatch, and the exit-code contract
// (0 clean, 1 findings or load errors, 2 usage or internal error).
import { escapeControl } from "../diagnostics.js";
import { VERSION } from "../version.js";
import { UsageError } from "./args.js";
import { runCheck } from "./check.js";
import { runScan } from "./scan-command.js";

const HELP = `speky ${VERSION}: requirements traceability for polyglot code bases

Usage:
  speky check PATH... [FILE...] [--format text|json|github] [--strict] [--no-cache] [-C CSV]...
      Validate the specs and scan the manifests' code_sources; fail on invalid specs
      and on code tags naming unknown IDs. FILEs (e.g. from pre-commit) restrict the
      scan to those files; the specs are always validated whole.
  speky scan PATH... [--output FILE] [--no-cache] [-C CSV]...
      Print the code references of the manifests' code_sources as JSON.
  speky scan --project NAME DIR|FILE... [--output FILE] [--no-cache]
      Scan arbitrary files and folders for tags of project NAME.
  speky --help | --version

PATH is a manifest (kind: project) or a specification file. Scan results are cached
in $SPEKY_CACHE_DIR (default: $XDG_CACHE_HOME/speky-ts or ~/.cache/speky-ts);
--no-cache scans every file afresh.
Exit codes: 0 clean, 1 findings or invalid specs, 2 usage or internal error.
`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new UsageError("missing command (check or scan)");
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(HELP);
      return 0;
    case "--version":
    case "-V":
      process.stdout.write(`speky ${VERSION}\n`);
      return 0;
    case "check": {
      const { output, exitCode } = await runCheck(rest);
      process.stdout.write(output);
      return exitCode;
    }
    case "scan": {
      const { stdout, stderr, exitCode } = await runScan(rest);
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      return exitCode;
    }
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

export async function main(argv: string[]): Promise<void> {
  try {
    process.exitCode = await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`speky: ${escapeControl(error.message)}\nTry 'speky --help'.\n`);
    } else {
      // A real internal bug: keep the stack, it is what a bug report needs.
      // The message may quote input: escaped; the stack frames after it are ours.
      const head = String(error);
      const stack = error instanceof Error && error.stack?.startsWith(head) ? error.stack.slice(head.length) : "";
      process.stderr.write(`speky: internal error: ${escapeControl(head)}${stack}\n`);
    }
    process.exitCode = 2;
  }
}

await main(process.argv.slice(2));
