import { z } from "zod";
import { findCodeReferences } from "../../model/navigate.js";
import { nullableString } from "../schemas.js";
import { defineTool } from "../tool.js";

export const findCodeReferencesTool = defineTool({
  name: "find_code_references",
  title: "Find code references",
  description:
    "From code to spec: the speky tags in a source file, each with the requirement or test it names (id, " +
    'kind, short title) and the tagged symbol. With line ("which requirement does the code here implement?"): ' +
    "the tags of every tagged definition whose span (first decorator or name line to last line) holds the line, " +
    "innermost first, then the free tags written inside the innermost definition holding it, or outside every " +
    "definition when none does; a line inside an untagged function gets nothing of its neighbours. kind is " +
    "unknown for a tag naming no loaded ID. Empty when the file has no tag (or is not among the scanned code sources).",
  input: {
    file: z.string().min(1).describe("Source file: relative to the project root as code references show it, or absolute"),
    line: z.number().int().min(1).optional().describe("1-based line inside the definition of interest"),
  },
  output: {
    references: z.array(
      z.object({
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
  run: (model, { file, line }) => ({ references: findCodeReferences(model, file, line) }),
});
