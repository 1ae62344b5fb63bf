// --verbose: lines on stderr that explain what a command did behind the scenes (why the scan
// cache was not used), escaped so that no input starts a line of its own.
import { escapeControl } from "../diagnostics.js";
import { flag, type ParsedArgs } from "./args.js";

export function verboseNote(args: ParsedArgs): ((line: string) => void) | undefined {
  if (!flag(args, "verbose")) return undefined;
  return (line) => process.stderr.write(`speky: ${escapeControl(line)}\n`);
}
