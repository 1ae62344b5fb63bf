import { z } from "zod";
import { modelProblems } from "../../../model/problems.js";
import * as schema from "../../schemas.js";
import { defineTool } from "../../tool.js";

export const listProblemsTool = defineTool({
  waitsForScan: true,
  name: "list_problems",
  title: "List problems",
  description:
    "What `speky check` reports, sorted by file and line: code tags naming an ID no requirement or test " +
    "defines (errors, with a 'did you mean' suggestion when an ID is close), scanner warnings (tags the " +
    "scanner could not attach to code) and the loader's errors and warnings for the spec files. Call it " +
    "after adding tags or editing specs.",
  input: {},
  output: { problems: z.array(schema.problem) },
  pages: ["problems"],
  live: true,
  run: (model, _args, state) => ({ problems: modelProblems(model, state.problems) }),
});
