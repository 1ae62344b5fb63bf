import { z } from "zod";
import { statusOf } from "../../../live/state.js";
import { lazy } from "../../answers/paging.js";
import * as schema from "../../schemas.js";
import { defineTool } from "../../tool.js";

const same = <T>(x: T) => x;

export const getStatusTool = defineTool({
  name: "get_status",
  title: "Server status",
  description:
    "What the server is serving: when the model was loaded (it reloads by itself when spec or source files " +
    "change), whether it is stale (the specs on disk currently fail to load, so the last good model is " +
    "served), how many files, requirements, tests and code references it holds, the progress of the first " +
    "scan of the code sources while it runs, and the loader's problems from the latest load attempt (the errors that keep a new model out, and warnings). Call it after " +
    "editing specs to check that they load; list_problems gives dangling code tags too.",
  input: {},
  output: {
    loaded_at: z.string().describe("When the served model was loaded (ISO 8601, UTC)"),
    stale: z.boolean().describe("true while the specs on disk fail to load and the last good model is served"),
    files: z.number().int().describe("Specification files read plus source files scanned"),
    requirements: z.number().int(),
    tests: z.number().int(),
    code_references: z.number().int().describe("Tags in the code naming this project's IDs"),
    problems: z.array(schema.problem).describe("Loader errors and warnings of the latest load attempt, sorted"),
    scanning: z
      .object({
        files_done: z.number().int().describe("Source files scanned so far"),
        files_total: z.number().int().optional().describe("Source files to scan (absent while they are being listed)"),
      })
      .optional()
      .describe(
        "Present while the first scan of the code sources runs: until it is done, code_references is 0 and the " +
          "tools that report code references wait for it",
      ),
  },
  // A load may report a problem per item: paged like list_problems.
  pages: ["problems"],
  live: true,
  run: (_model, _args, state) => {
    const { loaded_at, ...counts } = statusOf(state);
    return { loaded_at, stale: state.stale, ...counts, problems: lazy(counts.problems, same) };
  },
});
