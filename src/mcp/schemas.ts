// Zod schemas of the shared shapes, for the tools' outputSchema: the SDK publishes them as
// JSON Schema in tools/list and checks every structuredContent against them.
import { z } from "zod";

export const idArg = z.string().describe("Exact ID, e.g. REQ-001 (case-sensitive)");
export const tagArg = z.string().optional().describe("Exact tag, e.g. security or output:pdf");

export const oneliner = z.object({
  id: z.string(),
  short: z.string().optional().describe("One-line title, when the item has one"),
});

export const brief = z.object({
  id: z.string(),
  category: z.string(),
  short: z.string().optional(),
});

export const summary = brief.extend({
  tags: z.array(z.string()).optional().describe("Whole tags; a namespaced tag reads group:subtag"),
});

export const comment = z.object({
  date: z.string().describe("dd/mm/yyyy"),
  from: z.string(),
  text: z.string(),
  external: z.boolean().describe("true when the comment comes from outside the team (e.g. the client)"),
});

export const step = z.object({
  action: z.string(),
  run: z.string().optional().describe("Shell command to execute"),
  expected: z.string().optional().describe("Expected outcome"),
  sample: z.string().optional(),
  sample_lang: z.string().optional(),
});

// zod-to-json-schema writes a union of unchecked primitives as a list of types
// (`type: ["string", "null"]`), which strict clients reject (the Inspector's --strict flags it);
// a check on a member makes it write the portable anyOf. minLength 0 and finite change nothing
// that JSON can carry.
// speky:speky-ts#INSTALL-SCHEMA-PORTABLE
export const nullableString = () => z.string().min(0).nullable();
export const stringOrNumber = () => z.union([z.string(), z.number().finite()]);

const codeRefShape = {
  project: z.string().describe("The project (manifest name) whose root `file` is relative to"),
  file: z.string().describe("Path relative to the root of the project named by `project`"),
  line: z.number().int().describe("1-based line of the definition's name, or of the tag for a free reference"),
  symbol: nullableString().describe("Qualified name of the tagged definition; null for a free reference"),
};
const url = z.string().optional().describe("Link to the line in the repository browser");

export const requirementCodeRef = z.object({ ...codeRefShape, url });

export const testCodeRef = z.object({
  ...codeRefShape,
  is_test: z.boolean().describe("true when the tagged definition is an automated test"),
  url,
});

export const requirementList = { requirements: z.array(summary) };

export const problem = z.object({
  file: z.string().describe("Displayed path; empty when the problem concerns no file"),
  line: z.number().int().describe("1-based; 0 when the problem concerns the whole file"),
  column: z.number().int().describe("1-based; 0 when the problem concerns the whole file"),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
});

/** A list of requirement summaries, one bucket of a partition (test_plan_coverage, verification_status). */
export const summaries = (what: string) => z.array(summary).describe(what);
