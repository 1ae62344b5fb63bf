// What every page of the report reads, computed once from the model: the same model and the
// same coverage buckets as the MCP tools (test_plan_coverage), so the report and an agent
// never disagree.
import { compareDiagnostics, compareStrings, type Diagnostic } from "../diagnostics.js";
import type { Changes } from "../diff/shapes.js";
import type { Requirement, Test } from "../loader/types.js";
import { type CoverageBucket, coverageOf, coverageScope, isAutomated } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import { danglingDiagnostics } from "../model/problems.js";
import { verificationProblems } from "../model/verification-problems.js";
import { type Place, placeItems } from "../text/page-places.js";
import { requirementWeight, testWeight } from "./weights.js";

export const BUCKETS: readonly CoverageBucket[] = ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"];

export const BUCKET_LABELS: Record<CoverageBucket, string> = {
  no_test_plan: "No test plan",
  manual_test_plan: "Manual",
  partially_manual_test_plan: "Partially manual",
  automated_test_plan: "Automated",
};

export interface Generation {
  /** ISO time, to the second, UTC. */
  time: string;
  /** Full commit hash of the work tree the report was made from; null outside git. */
  commit: string | null;
  /** How many of the files read (specs, manifests, tagged code) differ from that commit's; absent when unknown. */
  uncommitted?: number;
}

export interface CategoryCoverage {
  category: string;
  counts: Record<CoverageBucket, number>;
  total: number;
}

export interface ReportData {
  model: Model;
  title: string;
  generation: Generation;
  requirements: readonly Requirement[];
  tests: readonly Test[];
  requirementPlace: ReadonlyMap<string, Place>;
  testPlace: ReadonlyMap<string, Place>;
  bucketOf: ReadonlyMap<string, CoverageBucket>;
  automated: ReadonlyMap<string, boolean>;
  /** Per category of the coverage scope (the manifests' coverage_categories), sorted. */
  coverage: CategoryCoverage[];
  coverageTotal: Record<CoverageBucket, number>;
  /** The categories counted, as the index explains the scope. */
  /** `verification`: the failed tests and the results files' problems, as check and list_problems name them (empty without results). */
  problems: { dangling: Diagnostic[]; verification: Diagnostic[]; scanner: Diagnostic[]; loader: Diagnostic[] };
  /** What the working tree changed since a revision (speky report --diff), for the changes page. */
  changes?: Changes;
  /** The base side's model of those changes: the texts as they were. */
  changesBase?: Model | null;
}

const emptyCounts = (): Record<CoverageBucket, number> => ({
  no_test_plan: 0,
  manual_test_plan: 0,
  partially_manual_test_plan: 0,
  automated_test_plan: 0,
});

function reportTitle(model: Model): string {
  const names = [...new Set(model.manifests.filter((m) => m.parent === null).map((m) => m.name))];
  return names.length > 0 ? names.join(", ") : "Specification";
}

export function reportData(model: Model, loaderDiagnostics: readonly Diagnostic[], generation: Generation): ReportData {
  const byId = (a: { id: string }, b: { id: string }) => compareStrings(a.id, b.id);
  const requirements = [...model.specs.requirements].sort(byId);
  const tests = [...model.specs.tests].sort(byId);
  const automated = new Map(tests.map((t) => [t.id, isAutomated(model, t.id)]));
  const bucketOf = new Map(requirements.map((r) => [r.id, coverageOf(model, r.id)]));

  const perCategory = new Map<string, CategoryCoverage>();
  const coverageTotal = emptyCounts();
  for (const req of coverageScope(model) ?? []) {
    let entry = perCategory.get(req.category);
    if (!entry) perCategory.set(req.category, (entry = { category: req.category, counts: emptyCounts(), total: 0 }));
    const bucket = bucketOf.get(req.id)!;
    entry.counts[bucket]++;
    entry.total++;
    coverageTotal[bucket]++;
  }
  return {
    model,
    title: reportTitle(model),
    generation,
    requirements,
    tests,
    requirementPlace: placeItems(
      requirements.map((r) => r.id),
      requirements.map((r) => requirementWeight(model, r)),
    ),
    testPlace: placeItems(
      tests.map((t) => t.id),
      tests.map((t) => testWeight(model, t)),
    ),
    bucketOf,
    automated,
    coverage: [...perCategory.values()].sort((a, b) => compareStrings(a.category, b.category)),
    coverageTotal,
    problems: {
      dangling: danglingDiagnostics(model),
      verification: verificationProblems(model).sort(compareDiagnostics),
      scanner: [...model.scanDiagnostics],
      loader: [...loaderDiagnostics],
    },
  };
}

export function problemCount(data: ReportData): number {
  const p = data.problems;
  return p.dangling.length + p.verification.length + p.scanner.length + p.loader.length;
}
