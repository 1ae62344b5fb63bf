// Where `speky report --out` may write. A checkout is hostile: one that ships `public -> /srv`
// and is reported with `--out public/trace` would have the report written outside it, through a
// link the repository planted (issue 25). A folder the user names outside the working folder
// (absolute, or `../`) is the user's own choice; below it, every link must stay below it.
import fs from "node:fs";
import path from "node:path";
import { within } from "../fs/boundary.js";
import { realOrResolved } from "../fs/paths.js";
import { quote } from "../quote.js";
import { OutputError } from "./site.js";

// speky:speky-ts#SEC-REPORT-LINK
/** Throws an OutputError when `out`, below `cwd`, leads out of `cwd` through a symbolic link. */
export function refuseLinkOut(cwd: string, out: string): void {
  const base = path.resolve(cwd);
  const abs = path.resolve(base, out);
  if (abs === base || !within(abs, base)) return;
  const realBase = realOrResolved(base);
  let at = base;
  for (const part of path.relative(base, abs).split(path.sep)) {
    at = path.join(at, part);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    // What does not exist yet is created as a real folder, under a parent already checked.
    if (stat === undefined) return;
    if (!stat.isSymbolicLink()) continue;
    let real: string | null;
    try {
      real = fs.realpathSync(at);
    } catch {
      real = null;
    }
    if (real === null || !within(real, realBase)) {
      const link = path.relative(base, at).split(path.sep).join("/");
      throw new OutputError(
        `output folder ${quote(out)} leads out of the working folder through ${quote(link)}, a symbolic link; give a folder inside it, or the real folder`,
      );
    }
  }
}
