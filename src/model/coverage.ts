// How each requirement is tested: the four buckets of `test_plan_coverage`, and which
// requirements a coverage figure counts (the manifests' coverage_categories). Shared by the MCP
// tool, the report and the LSP.
import type { Requirement } from "../loader/types.js";
import type { Model } from "./model.js";

/** A test is automated when one of its code references is an automated test. */
export function isAutomated(model: Model, testId: string): boolean {
  return model.codeReferencesById.get(testId)?.some((r) => r.is_test) ?? false;
}

export type CoverageBucket = "no_test_plan" | "manual_test_plan" | "partially_manual_test_plan" | "automated_test_plan";

// speky:speky-ts#LSP-HOVER-WORDS
/** The coverage buckets of test_plan_coverage, said in words (hover, speky diff's text and Markdown). */
export const COVERAGE_IN_WORDS: Record<CoverageBucket, string> = {
  no_test_plan: "no test plan",
  manual_test_plan: "every test manual",
  partially_manual_test_plan: "some tests automated, some manual",
  automated_test_plan: "every test automated",
};

export function coverageOf(model: Model, requirementId: string): CoverageBucket {
  const tests = model.testedBy.get(requirementId) ?? [];
  if (tests.length === 0) return "no_test_plan";
  const automated = tests.filter((t) => isAutomated(model, t.id)).length;
  if (automated === tests.length) return "automated_test_plan";
  return automated === 0 ? "manual_test_plan" : "partially_manual_test_plan";
}

/**
 * The requirements whose coverage is reported: each manifest's coverage_categories select among
 * that manifest's own requirements, and a category argument selects within that same scope (a
 * requirement whose manifest doesn't list the category is never counted). When no manifest
 * declares any (or there is no manifest), every requirement counts. Undefined when the category
 * names none.
 */
// speky:speky-ts#NAV-COVERAGE-SCOPE
export function coverageScope(model: Model, category?: string): readonly Requirement[] | undefined {
  let candidates: readonly Requirement[] = model.specs.requirements;
  if (category !== undefined) {
    const inCategory = model.requirementsByCategory.get(category);
    if (!inCategory) return undefined;
    candidates = inCategory;
  }
  const covered = new Map<string, Set<string>>();
  for (const m of model.manifests) {
    if (m.coverage_categories.length > 0) covered.set(m.name, new Set(m.coverage_categories));
  }
  if (covered.size === 0) return candidates;
  return candidates.filter((r) => r.project !== null && covered.get(r.project)?.has(r.category));
}
