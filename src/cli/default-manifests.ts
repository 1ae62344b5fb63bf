// What `speky check`, `speky report`, `speky scan` and `speky export` load when no manifest or
// spec is named: `./speky.yaml`, else the nearest `speky.yaml` above the working directory
// inside its git work tree (as git finds `.git`: src/loader/discover.ts), else the top-level
// manifests under the working directory, found as the editor finds them. A folder named as a
// PATH is read the same way, without looking above it.

import { statSync } from "node:fs";
import path from "node:path";
import { gitWorkTree } from "../fs/boundary.js";
import { realOrResolved, toPosix } from "../fs/paths.js";
import { DEFAULT_MANIFEST, manifestAbove } from "../loader/manifest-above.js";
import { UsageError } from "./args.js";

export { DEFAULT_MANIFEST };

/** Paths the note names before it counts the rest. */
const NOTE_PATHS = 5;

/** Lines for a command's --help. */
export const DEFAULT_HELP = `Without PATH: ./${DEFAULT_MANIFEST}, else the nearest ${DEFAULT_MANIFEST} above the current
folder up to the root of its git work tree (named on stderr), else the manifests (kind:
project) found under the current folder that no other manifest loads, as the editor finds
them; a folder as PATH is read the same way (without looking above it).`;

export interface DefaultPaths {
  /** Relative to cwd, '/'-separated: displayed as given. */
  paths: string[];
  /** Which manifests discovery chose (null when none was needed): a line for stderr. */
  note: string | null;
}

/** The note naming a manifest found above the working directory (a line for stderr). */
export function aboveNote(shown: string): string {
  return `no ./${DEFAULT_MANIFEST}: using ${shown}, found above the current folder`;
}

/** `./speky.yaml`, else the nearest one above cwd in its git work tree (relative to cwd), else null. */
export function ownOrAbove(cwd: string): DefaultPaths | null {
  if (statSync(path.resolve(cwd, DEFAULT_MANIFEST), { throwIfNoEntry: false })?.isFile()) return { paths: [DEFAULT_MANIFEST], note: null };
  const above = manifestAbove(cwd);
  if (above === null) return null;
  // The working directory is the kernel's real path; the walk above went through real folders too.
  const shown = toPosix(path.relative(realOrResolved(cwd), above));
  return { paths: [shown], note: aboveNote(shown) };
}

export function isDirectory(absPath: string): boolean {
  return statSync(absPath, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

// speky:speky-ts#CLI-DEFAULT-MANIFEST
/** The manifests of `folder` (relative to cwd): its speky.yaml, else those found below it; a UsageError (exit 2) when none. */
export async function folderManifests(command: string, cwd: string, folder = "."): Promise<DefaultPaths> {
  const here = folder === "." || folder === "";
  const own = here ? DEFAULT_MANIFEST : toPosix(path.join(folder, DEFAULT_MANIFEST));
  if (here) {
    const found = ownOrAbove(cwd);
    if (found) return found;
  } else if (statSync(path.resolve(cwd, own), { throwIfNoEntry: false })?.isFile()) return { paths: [own], note: null };
  // Loaded on use: the walk and both readers are not needed when a manifest is named.
  const { discoverManifests } = await import("../loader/discover.js");
  const found = (await discoverManifests([path.resolve(cwd, folder)])).map((abs) => toPosix(path.relative(cwd, abs)));
  const shown = here ? `./${DEFAULT_MANIFEST}` : own;
  if (found.length === 0) {
    const where = here ? "no manifest named, " : "";
    const under = here ? "this folder" : toPosix(folder);
    // Inside git, the folders above were looked in too (up to the work tree's root).
    const above = here && gitWorkTree(realOrResolved(cwd)) !== null ? " (nor above it, up to the git work tree's root)" : "";
    throw new UsageError(
      `${where}no ${shown}${above}, and no manifest (kind: project) under ${under}; name one: speky ${command} path/to/manifest.yaml`,
    );
  }
  const listed =
    found.length <= NOTE_PATHS ? found.join(", ") : `${found.slice(0, NOTE_PATHS).join(", ")} and ${found.length - NOTE_PATHS} more`;
  return { paths: found, note: `no ${shown}: using ${listed}` };
}

/** The PATHs to load: the given ones, a folder among them read as above, none: the current folder's. */
export async function manifestPaths(command: string, given: readonly string[], cwd: string): Promise<DefaultPaths> {
  if (given.length === 0) return folderManifests(command, cwd);
  const paths: string[] = [];
  const notes: string[] = [];
  for (const p of given) {
    if (!isDirectory(path.resolve(cwd, p))) {
      paths.push(p);
      continue;
    }
    const found = await folderManifests(command, cwd, p);
    paths.push(...found.paths);
    if (found.note) notes.push(found.note);
  }
  return { paths, note: notes.length > 0 ? notes.join("; ") : null };
}
