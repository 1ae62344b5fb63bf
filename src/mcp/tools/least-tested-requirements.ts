import { z } from "zod";
import { compareStrings } from "../../diagnostics.js";
import { isAutomated, type Model } from "../../model/model.js";
import { requirementsMatching } from "../filters.js";
import * as schema from "../schemas.js";
import { brief, uniqueSorted, type Brief } from "../shapes.js";
import { defineTool } from "../tool.js";

export interface TestedRequirement extends Brief {
  test_plans: number;
  automated_test_plans: number;
}

export function leastTested(model: Model, tag?: string, category?: string, count?: number): TestedRequirement[] {
  const ranked = uniqueSorted(requirementsMatching(model, tag, category)).map((req) => {
    const tests = model.testedBy.get(req.id) ?? [];
    return {
      ...brief(req),
      test_plans: tests.length,
      automated_test_plans: tests.filter((t) => isAutomated(model, t.id)).length,
    };
  });
  ranked.sort(
    (a, b) =>
      a.test_plans - b.test_plans || a.automated_test_plans - b.automated_test_plans || compareStrings(a.id, b.id),
  );
  // The contract ignores a count that is not a positive integer rather than rejecting it.
  return count !== undefined && Number.isInteger(count) && count > 0 ? ranked.slice(0, count) : ranked;
}

export const leastTestedRequirementsTool = defineTool({
  name: "least_tested_requirements",
  title: "Least tested requirements",
  description:
    "Requirements ranked from least to most tested: by number of tests referring to them (test_plans), then " +
    "by how many of those are automated (automated_test_plans), then by ID. Optionally filter by tag and/or " +
    "category, and keep only the first `count`. Use it to choose where to write test plans next.",
  input: {
    tag: schema.tagArg,
    category: z.string().optional().describe("Exact requirement category"),
    count: z.number().optional().describe("Keep only the first N (a positive integer; other values are ignored)"),
  },
  output: {
    requirements: z.array(
      schema.brief.extend({
        test_plans: z.number().int().describe("Tests whose ref names the requirement"),
        automated_test_plans: z.number().int().describe("Of those, the automated ones"),
      }),
    ),
  },
  pages: ["requirements"],
  run: (model, { tag, category, count }) => ({ requirements: leastTested(model, tag, category, count) }),
});
