// speky-mcp is started by an MCP client, in a folder the client chooses (often not the
// project's): a relative PATH that is not there is most likely that. Said before loading,
// with the folder looked in and the two ways to fix the client's configuration.
import { existsSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../diagnostics.js";

// speky:speky-ts#MCP-START-FOLDER
/** An error per PATH that does not exist, naming the folder looked in; empty when all exist. */
export function missingPaths(paths: readonly string[], cwd = process.cwd()): Diagnostic[] {
  const errors: Diagnostic[] = [];
  for (const given of paths) {
    if (existsSync(path.resolve(cwd, given))) continue;
    const where = path.isAbsolute(given)
      ? ""
      : ` in ${cwd} (the folder speky-mcp was started in: give the absolute path, or set the server's "cwd" in the MCP client's configuration)`;
    errors.push({ file: given, line: 0, column: 0, severity: "error", message: `file not found${where}` });
  }
  return errors;
}
