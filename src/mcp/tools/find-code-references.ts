import { lstatSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isVirtual, within } from "../../fs/boundary.js";
import type { Model } from "../../model/model.js";
import { candidatePaths, findCodeReferences, type TagAtPlace } from "../../model/navigate.js";
import { quote } from "../../quote.js";
import { suggestName } from "../../text/suggest.js";
import { nullableString } from "../schemas.js";
import { defineTool, ToolError } from "../tool.js";

// speky:speky-ts#MCP-FILE-NOT-FOUND
/**
 * The tags of `file` (at `line`); when it has none, an error if no such file exists in the
 * project, so that a typo is not read as "this code implements nothing". Only paths inside a
 * manifest's root or the working directory are looked up (lstat: never opened, never
 * followed); the error names the closest tagged file.
 */
export function codeReferencesOf(model: Model, file: string, line?: number, cwd = process.cwd()): TagAtPlace[] {
  const found = findCodeReferences(model, file, line, cwd);
  if (found.length > 0) return found;
  const roots = [...model.manifests.map((m) => path.resolve(m.root)), path.resolve(cwd)];
  for (const candidate of candidatePaths(model, file, cwd)) {
    if (isVirtual(candidate) || !roots.some((root) => within(candidate, root))) continue;
    try {
      lstatSync(candidate);
      return found;
    } catch {
      // not there: the next candidate
    }
  }
  const tagged = new Set(model.codeReferences.map((r) => r.file));
  throw new ToolError(`File ${quote(file)} not found`, suggestName(file, tagged));
}

export const findCodeReferencesTool = defineTool({
  waitsForScan: true,
  name: "find_code_references",
  title: "Find code references",
  description:
    "From code to spec: the speky tags in a source file, each with the requirement or test it names (id, " +
    'kind, short title) and the tagged symbol. With line ("which requirement does the code here implement?"): ' +
    "the tags of every tagged definition whose span (first decorator or name line to last line) holds the line, " +
    "innermost first, then the free tags written inside the innermost definition holding it, or outside every " +
    "definition when none does; a line inside an untagged function gets nothing of its neighbours. kind is " +
    "unknown for a tag naming no loaded ID. Empty when the file has no tag; an error (with the tagged file likely " +
    "meant) when no such file exists in the project.",
  input: {
    file: z.string().min(1).describe("Source file: relative to the project root as code references show it, or absolute"),
    line: z.number().int().min(1).optional().describe("1-based line inside the definition of interest"),
  },
  output: {
    references: z.array(
      z.object({
        project: z.string().describe("The project (manifest name) the tag names"),
        file: z.string().describe("Path relative to the root of the project the tag names"),
        line: z.number().int().describe("Line of the definition's name, or of the tag for a free reference"),
        symbol: nullableString().describe("Qualified name of the tagged definition; null for a free reference"),
        is_test: z.boolean().describe("true when the tagged definition is an automated test"),
        id: z.string(),
        kind: z.enum(["requirement", "test", "unknown"]),
        short: z.string().optional(),
        url: z.string().optional().describe("Link to the line in the repository browser"),
      }),
    ),
  },
  pages: ["references"],
  run: (model, { file, line }) => ({ references: codeReferencesOf(model, file, line) }),
});
