// What stands where a command is to write its folder of pages (`speky report --out`, speky's
// `--output-folder`): the first check both make, before each applies its own rule to a folder
// that holds something.
import fs from "node:fs";

/** `made`: nothing stood there and the folder now does; `link` and `not-a-folder` are refused by the caller. */
export type OutputFolderState = "made" | "link" | "not-a-folder" | "folder";

/** Looks at `dir` without following a link; makes it (and its parents) when nothing is there. */
export function outputFolderState(dir: string): OutputFolderState {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    stat = undefined;
  }
  if (stat === undefined) {
    fs.mkdirSync(dir, { recursive: true });
    return "made";
  }
  if (stat.isSymbolicLink()) return "link";
  return stat.isDirectory() ? "folder" : "not-a-folder";
}
