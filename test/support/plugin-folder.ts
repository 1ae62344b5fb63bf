// The plugin as a marketplace serves it: the repository's files as a clone of the working tree
// holds them (tracked files, and new ones git does not ignore), without node_modules, dist/ or
// the built grammars. The plugin's tests install and start it from such a copy.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { REPO } from "./process.js";

/** Copies the plugin's files into `into` (created) and returns it. */
export function pluginFolder(into: string): string {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  for (const rel of listed.stdout.split("\0").filter((f) => f !== "")) {
    const from = path.join(REPO, rel);
    // A tracked file deleted in the working tree is not part of it.
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(into, rel)), { recursive: true });
    copyFileSync(from, path.join(into, rel));
  }
  return into;
}
