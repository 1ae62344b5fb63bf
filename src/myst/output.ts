// Writes the pages into speky's output folder, and nowhere else. The folder may sit in a
// hostile checkout: it is checked by the writers' rule (src/fs/write-output.ts: no link leading
// out of the working folder on its way, not a link itself), only emptied when everything in it is what speky's generator
// writes (a previous run of speky or of ours), a folder holding anything else is refused
// (the rule of `speky report --out`), a symbolic link is never followed, and every file is
// created afresh (O_EXCL), so that a planted link inside is replaced, its target untouched.
// Every page name is checked before anything is written: an ID or a category that would
// leave its folder, or that no file system takes, writes nothing.
// speky:speky-ts#MYST-OUTPUT
import fs from "node:fs";
import path from "node:path";
import { type OutputOptions, OutputPathError, outputFolder, writeNewFile } from "../fs/write-output.js";
import { quote } from "../quote.js";

/** A refused output folder or page name: one line and exit 1 (speky's exit on an OSError). */
export { OutputPathError as PagesOutputError };

const TOP = new Set(["index.md", "by_tag.md", "coverage.md"]);
const PAGE_FOLDERS = new Set(["requirements", "tests"]);
/** What a file manager leaves in any folder it shows (macOS's Finder): removed with the pages. */
const FINDER = ".DS_Store";
/** Most file systems take names of at most 255 bytes. */
const MAX_NAME_BYTES = 255;

/** The first entry of `dir` that speky's generator never writes, or null. */
function foreignEntry(dir: string): string | null {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    if ((TOP.has(name) || name === FINDER) && (entry.isFile() || entry.isSymbolicLink())) continue;
    const inner = path.join(dir, name);
    if (PAGE_FOLDERS.has(name) && entry.isDirectory()) {
      const other = fs
        .readdirSync(inner, { withFileTypes: true })
        .find((e) => !(e.name.endsWith(".md") || e.name === FINDER) || e.isDirectory());
      if (other) return `${name}/${other.name}`;
      continue;
    }
    if (name === "css" && entry.isDirectory()) {
      const other = fs
        .readdirSync(inner, { withFileTypes: true })
        .find((e) => !(e.name === "speky.css" || e.name === FINDER) || e.isDirectory());
      if (other) return `${name}/${other.name}`;
      continue;
    }
    return name;
  }
  return null;
}

/** Page names that cannot be written inside their folder (a '/' in an ID or a category). */
export function unwritablePages(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const file of files.keys()) {
    const name = file.slice(file.indexOf("/") + 1);
    if (name.includes("/") || name.includes("\0")) problems.push(`${quote(name)} would leave its folder`);
    else if (Buffer.byteLength(name) > MAX_NAME_BYTES) problems.push(`${quote(name)} is longer than ${MAX_NAME_BYTES} bytes`);
  }
  return problems;
}

/** Makes `dir` an empty folder that holds nothing of anyone else's. */
function prepare(dir: string, shown: string, place: OutputOptions): void {
  if (outputFolder(dir, place) === "made") return;
  const foreign = foreignEntry(dir);
  if (foreign !== null) {
    throw new OutputPathError(
      `output folder ${quote(shown)} holds ${quote(foreign)}, which speky's pages never include; choose another --output-folder or empty it`,
    );
  }
  // rm never follows a symbolic link: a planted one is removed, its target left alone.
  for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** Writes the pages (relative path → text) into `out` (relative to `cwd`), which holds exactly them afterwards. */
export function writePages(files: ReadonlyMap<string, string>, out: string, cwd: string): void {
  const unwritable = unwritablePages(files);
  if (unwritable.length > 0) throw new OutputPathError(`cannot write the pages: ${unwritable.join("; ")}`);
  const dir = path.resolve(cwd, out);
  prepare(dir, out, { cwd, shown: out });
  for (const sub of ["requirements", "tests", "css"]) fs.mkdirSync(path.join(dir, sub));
  for (const [file, text] of files) writeNewFile(path.join(dir, file), text);
}
