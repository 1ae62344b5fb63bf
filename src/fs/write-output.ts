// Every file the tool writes for its user goes through this module (docs/security.md, "Writers"):
// `speky scan --output`, `speky export --out`, `speky report --out`, speky's pages (`speky FILE
// -o DIR`) and any writer to come (SARIF...). The output path is usually inside a checkout, and
// a checkout is hostile: it may ship `refs.json -> ~/.bashrc` or `build -> /elsewhere`.
//
// The rule, for a file and for a folder of files:
// - a part of the path below the working folder (the part the repository can control) that is a
//   symbolic link must lead to a place inside the working folder, else nothing is written
//   (`OutputPathError`); a path the user names outside it (absolute, `../`) is the user's own;
// - a file is never written through an existing link: `writeOutputFile` writes a new file
//   beside it (O_EXCL) and renames it over the name, so a link planted there is replaced and
//   its target left untouched (replaced rather than refused: the name is the user's choice,
//   what a link made of it is not, and a rename is what makes a reader never see half a file);
// - a folder that is itself a link is refused; files inside one are created afresh
//   (`writeNewFile`, O_EXCL|O_NOFOLLOW), never opened through a link.
//
// Use:
//   writeOutputFile("refs.json", json, { cwd });                 // one file
//   const state = outputFolder("site", { cwd });                 // a folder: "made" or "folder"
//   writeNewFile(path.join(cwd, "site", "index.html"), html);    // each of its files
// A refusal is an OutputPathError whose message is the one line to print (exit 2); any other
// error is the file system's, for `fileErrorReason` (src/cli/file-error.ts):
//   try { writeOutputFile(out, text, { cwd }); }
//   catch (e) { throw new CommandError(e instanceof OutputPathError ? e.message : `cannot write ${quote(out)}: ${fileErrorReason(e)}`); }
// speky:speky-ts#SEC-OUTPUT-WRITERS
import fs from "node:fs";
import path from "node:path";
import { quote } from "../quote.js";
import { within } from "./boundary.js";
import { realOrResolved } from "./paths.js";

/** An output path refused by the rule above: one line for the user, exit 2 (1 for speky's pages). */
export class OutputPathError extends Error {}

export interface OutputOptions {
  /** The working folder relative paths start from (default: the process's). */
  cwd?: string;
  /** The path as the user gave it, for messages (default: the path given). */
  shown?: string;
}

/** Characters gathered before one write of a file given in pieces. */
const WRITE_CHARS = 256 * 1024;
const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
const NEW_FILE = O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0);

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

// speky:speky-ts#SEC-REPORT-LINK
/**
 * Refuses `abs` when one of its parts below `cwd`, the last one left out (its writer's rule
 * applies to it), is a symbolic link whose real place is outside `cwd` (or nowhere: a dangling
 * link, a loop). What does not exist yet is made later as a real folder under checked parents.
 */
function refuseLinksOut(cwd: string, abs: string, shown: string, what: string): void {
  const base = path.resolve(cwd);
  if (abs === base || !within(abs, base)) return;
  const parts = path.relative(base, abs).split(path.sep).slice(0, -1);
  let realBase: string | null = null;
  let at = base;
  for (const part of parts) {
    at = path.join(at, part);
    const stat = lstatOrUndefined(at);
    if (stat === undefined) return;
    if (!stat.isSymbolicLink()) continue;
    realBase ??= realOrResolved(base);
    let real: string | null;
    try {
      real = fs.realpathSync(at);
    } catch {
      real = null;
    }
    if (real === null || !within(real, realBase)) {
      const link = path.relative(base, at).split(path.sep).join("/");
      throw new OutputPathError(
        `${what} ${quote(shown)} leads out of the working folder through ${quote(link)}, a symbolic link; give a path inside it, or the real path`,
      );
    }
  }
}

/** `data` written whole to the descriptor: a string piece by piece as it is joined, never one huge string. */
function writeAll(fd: number, data: string | Uint8Array | Iterable<string>): number {
  let bytes = 0;
  const put = (buffer: Uint8Array) => {
    for (let at = 0; at < buffer.length; ) at += fs.writeSync(fd, buffer, at);
    bytes += buffer.length;
  };
  if (typeof data === "string" || data instanceof Uint8Array) {
    put(typeof data === "string" ? Buffer.from(data) : data);
    return bytes;
  }
  let pending = "";
  for (const piece of data) {
    pending += piece;
    if (pending.length >= WRITE_CHARS) {
      put(Buffer.from(pending));
      pending = "";
    }
  }
  if (pending.length > 0) put(Buffer.from(pending));
  return bytes;
}

/**
 * Creates `file` afresh (O_EXCL, O_NOFOLLOW: whatever stands at the name, a link included, makes
 * it fail) and writes `data` into it; returns the bytes written. For the files of an output folder
 * made or emptied by its writer.
 */
export function writeNewFile(file: string, data: string | Uint8Array | Iterable<string>, mode = 0o666): number {
  const fd = fs.openSync(file, NEW_FILE, mode);
  try {
    return writeAll(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `data` into the output file `file` (relative to `options.cwd`): checked by the rule
 * above, written beside it under a new name, then renamed over it. A link at `file` is replaced,
 * its target untouched. The folder holding it must exist. Throws OutputPathError when refused,
 * the file system's error otherwise (the temporary file removed).
 */
export function writeOutputFile(file: string, data: string | Uint8Array | Iterable<string>, options: OutputOptions = {}): void {
  const cwd = options.cwd ?? process.cwd();
  const abs = path.resolve(cwd, file);
  refuseLinksOut(cwd, abs, options.shown ?? file, "output file");
  const temporary = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let made = false;
  try {
    writeNewFile(temporary, data);
    made = true;
    fs.renameSync(temporary, abs);
  } catch (error) {
    if (made) fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** `made`: nothing stood there and the folder (with its missing parents) now does; `folder`: one was there. */
export type OutputFolderState = "made" | "folder";

/**
 * Checks the output folder `dir` (relative to `options.cwd`) by the rule above and makes it when
 * it is missing. A link as the folder, a link leading out on its way or a file in its place is
 * refused (OutputPathError). What an existing folder may hold is its writer's rule.
 */
export function outputFolder(dir: string, options: OutputOptions = {}): OutputFolderState {
  const cwd = options.cwd ?? process.cwd();
  const abs = path.resolve(cwd, dir);
  const shown = options.shown ?? dir;
  refuseLinksOut(cwd, abs, shown, "output folder");
  const stat = lstatOrUndefined(abs);
  if (stat === undefined) {
    fs.mkdirSync(abs, { recursive: true });
    return "made";
  }
  // Inside or out: a folder whose files are removed and rewritten is named by its real path.
  if (stat.isSymbolicLink()) throw new OutputPathError(`output folder ${quote(shown)} is a symbolic link; give the real folder`);
  if (!stat.isDirectory()) throw new OutputPathError(`output folder ${quote(shown)} exists and is not a folder`);
  return "folder";
}
