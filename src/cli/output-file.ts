// Where a command writes what it would print (`export --out`, `check --output`): one writer,
// so every command's output file is written the same safe way. The file is written beside its
// target, then renamed over it: a link planted at FILE is replaced, its target untouched.
import fs from "node:fs";
import path from "node:path";
import { quote } from "../quote.js";
import { CommandError } from "./args.js";
import { fileErrorReason } from "./file-error.js";

function writeBeside(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, text, { flag: "wx" });
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** Writes `text` into `out` (as given, relative to `cwd`); a failure is a CommandError naming it (exit 2). */
export function writeOutputFile(cwd: string, out: string, text: string): void {
  try {
    writeBeside(path.resolve(cwd, out), text);
  } catch (error) {
    throw new CommandError(`cannot write ${quote(out)}: ${fileErrorReason(error)}`);
  }
}
