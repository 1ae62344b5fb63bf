import { z } from "zod";
import type { Requirement } from "../../../loader/types.js";
import { byId, type Summary, summary } from "../../../model/answer-shapes.js";
import { type CoverageBucket, coverageOf, coverageScope } from "../../../model/coverage.js";
import type { Model } from "../../../model/model.js";
import { lazy } from "../../answers/paging.js";
import { unknownCategory } from "../../filters.js";
import * as schema from "../../schemas.js";
import { defineTool } from "../../tool.js";

/**
 * The requirements a coverage figure counts, or a tool error when the category names none.
 * An empty category is no filter, as in every tool and in speky.
 */
// speky:speky-ts#MCP-EMPTY-FILTER
function scopeOrError(model: Model, category?: string): readonly Requirement[] {
  const scope = coverageScope(model, category || undefined);
  if (scope === undefined) throw unknownCategory(category ?? "", model.requirementsByCategory.keys());
  return scope;
}

export type Coverage = Record<CoverageBucket, Summary[]>;

/** The requirements in each bucket, sorted by ID, shaped as summaries when a page asks for them. */
export function testPlanCoverage(model: Model, category?: string): Coverage {
  const buckets: Record<CoverageBucket, Requirement[]> = {
    no_test_plan: [],
    manual_test_plan: [],
    partially_manual_test_plan: [],
    automated_test_plan: [],
  };
  const scope = [...scopeOrError(model, category)].sort(byId);
  for (const req of scope) buckets[coverageOf(model, req.id)].push(req);
  return {
    no_test_plan: lazy(buckets.no_test_plan, summary),
    manual_test_plan: lazy(buckets.manual_test_plan, summary),
    partially_manual_test_plan: lazy(buckets.partially_manual_test_plan, summary),
    automated_test_plan: lazy(buckets.automated_test_plan, summary),
  };
}

export const testPlanCoverageTool = defineTool({
  waitsForScan: true,
  name: "test_plan_coverage",
  title: "Test plan coverage",
  description:
    "Partition requirements by how they are tested: no_test_plan (no test refers to them), manual_test_plan " +
    "(tests exist, none automated), partially_manual_test_plan (some tests automated), automated_test_plan " +
    "(every test automated). A test is automated when code tagged with its ID is an automated test. Covers " +
    "the categories each project manifest lists in coverage_categories; a category argument selects within them. " +
    "Use it to find coverage gaps before a release. With limit, pages run through the four lists in this order.",
  input: {
    category: z
      .string()
      .optional()
      .describe("Exact requirement category: only its requirements, among those of the manifests listing it in coverage_categories"),
  },
  output: {
    no_test_plan: schema.summaries("Requirements no test refers to"),
    manual_test_plan: schema.summaries("Requirements whose tests are all manual"),
    partially_manual_test_plan: schema.summaries("Requirements with both manual and automated tests"),
    automated_test_plan: schema.summaries("Requirements whose tests are all automated"),
  },
  // Paged as one sequence: the four buckets in this order.
  pages: ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"],
  run: (model, { category }) => testPlanCoverage(model, category),
});
