// What `speky check`, `speky report` and `speky scan` load when no manifest or spec is named:
// `./speky.yaml`, else the top-level manifests under the working directory, found as the
// editor finds them (src/loader/discover.ts).
import { statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "./args.js";

export const DEFAULT_MANIFEST = "speky.yaml";
/** Paths the note names before it counts the rest. */
const NOTE_PATHS = 5;

/** One line for a command's --help. */
export const DEFAULT_HELP = `Without PATH: ./${DEFAULT_MANIFEST}, else the manifests (kind: project) found
under the current folder that no other manifest loads, as the editor finds them.`;

export interface DefaultPaths {
  /** Relative to cwd, '/'-separated: displayed as given. */
  paths: string[];
  /** Which manifests discovery chose (null for ./speky.yaml): a line for stderr. */
  note: string | null;
}

// speky:speky-ts#CLI-DEFAULT-MANIFEST
/** The manifests to load when none is named; a UsageError (exit 2) when there is none. */
export async function defaultPaths(command: string, cwd: string): Promise<DefaultPaths> {
  if (statSync(path.join(cwd, DEFAULT_MANIFEST), { throwIfNoEntry: false })) return { paths: [DEFAULT_MANIFEST], note: null };
  // Loaded on use: the walk and both readers are not needed when a PATH is named.
  const { discoverManifests } = await import("../loader/discover.js");
  const found = (await discoverManifests([cwd])).map((abs) => path.relative(cwd, abs).split(path.sep).join("/"));
  if (found.length === 0) {
    throw new UsageError(
      `no manifest named, no ./${DEFAULT_MANIFEST}, and no manifest (kind: project) under this folder; ` +
        `name one: speky ${command} path/to/manifest.yaml`,
    );
  }
  const listed =
    found.length <= NOTE_PATHS ? found.join(", ") : `${found.slice(0, NOTE_PATHS).join(", ")} and ${found.length - NOTE_PATHS} more`;
  return { paths: found, note: `no ./${DEFAULT_MANIFEST}: using ${listed}` };
}
