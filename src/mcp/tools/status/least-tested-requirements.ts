import { z } from "zod";
import type { Requirement } from "../../../loader/types.js";
import { type Brief, uniqueSorted, withOptional } from "../../../model/answer-shapes.js";
import { isAutomated } from "../../../model/coverage.js";
import type { Model } from "../../../model/model.js";
import { lazy } from "../../answers/paging.js";
import { requirementsMatching } from "../../filters.js";
import * as schema from "../../schemas.js";
import { defineTool } from "../../tool.js";

export interface TestedRequirement extends Brief {
  test_plans: number;
  automated_test_plans: number;
}

function tested(model: Model, req: Requirement): TestedRequirement {
  // Built field by field in brief's order (a spread of brief's object made a slow copy per entry).
  const entry = withOptional({ id: req.id, category: req.category } as TestedRequirement, "short", req.short);
  const tests = model.testedBy.get(req.id);
  entry.test_plans = tests?.length ?? 0;
  entry.automated_test_plans = 0;
  for (let j = 0; j < (tests?.length ?? 0); j++) if (isAutomated(model, tests![j].id)) entry.automated_test_plans++;
  return entry;
}

/** The ranking, over the model's requirements: entries are shaped per page (paging.ts). */
export function leastTested(model: Model, tag?: string, category?: string, count?: number): TestedRequirement[] {
  // Sorted by ID first: then a position breaks ties as the ID would.
  const byId = uniqueSorted(requirementsMatching(model, tag, category));
  const plans = new Int32Array(byId.length);
  const automated = new Int32Array(byId.length);
  for (let i = 0; i < byId.length; i++) {
    const tests = model.testedBy.get(byId[i].id);
    if (tests === undefined) continue;
    plans[i] = tests.length;
    for (let j = 0; j < tests.length; j++) if (isAutomated(model, tests[j].id)) automated[i]++;
  }
  const order = Array.from(byId, (_, i) => i).sort((a, b) => plans[a] - plans[b] || automated[a] - automated[b] || a - b);
  // The contract ignores a count that is not a positive integer rather than rejecting it.
  const kept = count !== undefined && Number.isInteger(count) && count > 0 ? order.slice(0, count) : order;
  return lazy(
    kept.map((i) => byId[i]),
    (req) => tested(model, req),
  );
}

export const leastTestedRequirementsTool = defineTool({
  waitsForScan: true,
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
