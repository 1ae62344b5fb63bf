import { z } from "zod";
import { nullableString, problem, summary } from "../../schemas.js";
import { defineTool, ToolError } from "../../tool.js";

const project = nullableString().describe("The project (manifest name) it belongs to; null for a spec file given directly");

const ref = z.object({
  id: z.string(),
  project: z.string().describe("The project whose tag it is"),
  file: z.string().describe("Path from the repository's top, on the side the reference exists on"),
  line: z.number().int().describe("Line of the definition's name, or of the tag for a free reference"),
  symbol: nullableString().describe("Qualified name of the tagged definition; null for a free reference"),
  is_test: z.boolean(),
});

const item = summary.extend({ project });

const items = z.object({
  added: z.array(item).describe("On the working tree only"),
  removed: z.array(item).describe("At the base only"),
  changed: z.array(
    z.object({ id: z.string(), project, fields: z.array(z.string()).describe("Changed fields, in the spec's names, sorted") }),
  ),
  renamed: z
    .array(z.object({ from: z.string(), to: z.string(), project }))
    .describe("Items whose ID changed while every other field stayed equal (in neither added nor removed)"),
});

const bucket = z.enum(["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"]);

export const changesSinceTool = defineTool({
  waitsForScan: true,
  name: "changes_since",
  title: "Changes since a revision",
  description:
    "What the working tree changed in the specification since a git revision (a branch, tag or commit, e.g. origin/main " +
    "or HEAD~1): manifests whose keys changed; requirements and tests added, removed, changed (which fields) and renamed " +
    "(the ID changed, nothing else); code tags added, removed and moved (a tag that went with its definition to another " +
    "file or place, or whose definition was renamed where it stands; a tag moved by edits above it is none of them); requirements whose test_plan_coverage bucket changed; impact: the tagged " +
    "definitions whose lines the change touched, with their IDs; suspect: requirements whose long, short or " +
    "client_statement changed while none of their tagged definitions did (code: those definitions); rerun: the tests " +
    "to run again. The base is read from git's objects; nothing in the repository is changed. When a side's " +
    "specifications do not load, load_errors holds their errors and the sections are left out; a side with no " +
    "manifest at all is an empty model (without_specification); warnings names the files of a revision that could " +
    "not be compared (a symbolic link no file system takes). Every file is from the repository's top.",
  input: {
    base: z.string().min(1).describe("A git revision to compare the working tree with, e.g. origin/main"),
  },
  output: {
    base: z.string(),
    base_commit: z.string().describe("The full commit hash BASE names"),
    head: z.string().describe('"working tree"'),
    warnings: z.object({ base: z.array(problem).optional(), head: z.array(problem).optional() }).optional(),
    without_specification: z
      .array(z.enum(["base", "head"]))
      .optional()
      .describe("Sides with no manifest at all: empty models"),
    load_errors: z.object({ base: z.array(problem).optional(), head: z.array(problem).optional() }).optional(),
    manifests: z
      .array(
        z.object({
          file: z.string(),
          project: z.string(),
          change: z.enum(["added", "removed", "changed"]),
          keys: z.array(z.string()).describe("Top-level keys whose values differ, sorted"),
        }),
      )
      .optional(),
    requirements: items.optional(),
    tests: items.optional(),
    code_references: z
      .object({
        added: z.array(ref),
        removed: z.array(ref),
        moved: z.array(z.object({ id: z.string(), project: z.string(), from: ref, to: ref })),
      })
      .optional(),
    coverage: z.array(z.object({ id: z.string(), project, from: bucket, to: bucket })).optional(),
    impact: z
      .array(
        z.object({
          project: z.string(),
          file: z.string(),
          symbol: nullableString().describe("null: a free tag's enclosing definition, known by its lines, or the whole file"),
          start_line: z.number().int(),
          end_line: z.number().int(),
          ids: z.array(z.string()),
        }),
      )
      .optional(),
    suspect: z.array(z.object({ id: z.string(), project, code: z.array(ref) })).optional(),
    rerun: z.array(z.string()).optional().describe("Test IDs, sorted"),
    truncated: z.literal(true).optional().describe("Present when lists were cut to keep the answer under 1 MiB: run speky diff for all"),
  },
  live: true,
  run: () => {
    throw new ToolError("changes_since is answered asynchronously");
  },
  runAsync: async ({ base }, state) => {
    if (state.scanning) throw new ToolError(`${state.scanning.describe()}; call changes_since again when it is done`);
    const { changesSinceServed } = await import("../../changes-served.js");
    const answer = await changesSinceServed(state.model, state.problems, base);
    if ("error" in answer) throw new ToolError(answer.error);
    return answer.changes;
  },
});
