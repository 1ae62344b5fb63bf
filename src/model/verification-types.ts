// The shapes of a model's verification (src/model/verification.ts computes them): apart, so
// that the model can name them without importing what computes them.
import type { Diagnostic } from "../diagnostics.js";
import type { ResultsFile, Testcase } from "../results/types.js";
import type { CodeReference } from "../scan/types.js";

export type ReferenceStatus = "passed" | "failed" | "skipped" | "not_run";
export type TestPlanStatus = "manual" | "passed" | "failed" | "incomplete" | "not_run";
export type RequirementStatus = "verified" | "partially_verified" | "unverified" | "failing";

/** One failed or errored testcase of a tagged test. */
export interface Failure {
  testcase: Testcase;
  /** Its results file's displayed path. */
  file: string;
  /** Its results file, absolute (check shows it relative to the current folder). */
  abs: string;
  /** The test qualified as the runner names it (`TestPipe.test_fits[huge]`, `Basket > fits huge`). */
  test: string;
  message?: string;
  /** Its name says more than its definition's (a parametrized case, a subtest). */
  decorated: boolean;
}

export interface ReferenceResult {
  status: ReferenceStatus;
  /** Testcases that ran this definition (parametrized cases and subtests included). */
  testcases: number;
  /** Seconds, summed over those testcases, when the runner gave times. */
  time?: number;
  /** The first failure's first line. */
  message?: string;
  failures: Failure[];
  /** When the run that gave this status happened: the latest time of the results files its testcases came from. */
  ranAt?: string;
}

export interface Verification {
  files: readonly ResultsFile[];
  testcasesRead: number;
  testcasesMatched: number;
  /** Testcases that matched no tagged test, by results file and position. */
  unmatched: readonly { file: string; testcase: Testcase }[];
  /** Results files' problems (malformed, refused, a glob that matched nothing), sorted. */
  diagnostics: readonly Diagnostic[];
  /** Every automated (is_test) code reference of the model. */
  references: ReadonlyMap<CodeReference, ReferenceResult>;
  tests: ReadonlyMap<string, TestPlanStatus>;
  requirements: ReadonlyMap<string, RequirementStatus>;
}
