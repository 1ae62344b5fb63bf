// Where a command writes what it would print (`scan --output`, `export --out`, `check --output`):
// the writers' rule of src/fs/write-output.ts (written beside, then renamed over FILE; no link
// leading out of the working folder followed), with its refusal or the file system's error as the
// command's one-line error (exit 2).
import { OutputPathError, writeOutputFile } from "../fs/write-output.js";
import { quote } from "../quote.js";
import { CommandError } from "./args.js";
import { fileErrorReason } from "./file-error.js";

/** Writes `text` into `out` (as given, relative to `cwd`); a failure is a CommandError naming it. */
export function writeCommandOutput(cwd: string, out: string, text: string): void {
  try {
    writeOutputFile(out, text, { cwd });
  } catch (error) {
    if (error instanceof OutputPathError) throw new CommandError(error.message);
    // speky:speky-ts#INSTALL-OUTPUT-ERROR
    throw new CommandError(`cannot write ${quote(out)}: ${fileErrorReason(error)}`);
  }
}
