// What a verification says of one test plan, one requirement and the run as a whole, shaped as
// the answers show it (docs/verification.md, "Where it shows"): shared by the MCP tools and `speky
// export`, so that both say the same thing. Undefined without results.
import { compareStrings } from "../diagnostics.js";
import { compareCodeReferences, type Model } from "./model.js";
import { lastRunTime } from "./verification.js";
import type { ReferenceStatus, RequirementStatus, TestPlanStatus, Verification } from "./verification-types.js";

export interface TestVerificationView {
  status: TestPlanStatus;
  runs: { file: string; line: number; symbol: string; status: ReferenceStatus; time?: number; message?: string }[];
}

export interface RequirementVerificationView extends Record<TestPlanStatus, string[]> {
  status: RequirementStatus;
}

export interface ResultsMetadata {
  files: { file: string; timestamp: string; testcases: number }[];
  last_run?: string;
  testcases_read: number;
  testcases_matched: number;
  testcases_unmatched: number;
}

/** A test plan's status and each automated test tagged with its ID, with its last result. */
export function testVerificationView(model: Model, id: string): TestVerificationView | undefined {
  const v = model.verification;
  if (!v) return undefined;
  const refs = (model.codeReferencesById.get(id) ?? []).filter((r) => r.is_test).sort(compareCodeReferences);
  const runs = refs.map((ref) => {
    const r = v.references.get(ref)!;
    return {
      file: ref.file,
      line: ref.line,
      symbol: ref.symbol ?? "",
      status: r.status,
      ...(r.time === undefined ? {} : { time: r.time }),
      ...(r.message === undefined ? {} : { message: r.message }),
    };
  });
  return { status: v.tests.get(id) ?? "manual", runs };
}

/** A requirement's status and the IDs of its test plans by their status, each list sorted. */
export function requirementVerificationView(model: Model, id: string): RequirementVerificationView | undefined {
  const v = model.verification;
  if (!v) return undefined;
  const by: Record<TestPlanStatus, string[]> = { passed: [], failed: [], incomplete: [], not_run: [], manual: [] };
  for (const test of model.testedBy.get(id) ?? []) by[v.tests.get(test.id) ?? "manual"].push(test.id);
  for (const list of Object.values(by)) list.sort(compareStrings);
  return { status: v.requirements.get(id) ?? "unverified", ...by };
}

/** The files read, when the last run happened, and the testcases read, matched and unmatched. */
export function resultsMetadata(v: Verification): ResultsMetadata {
  const last = lastRunTime(v);
  return {
    files: v.files.map((f) => ({ file: f.file, timestamp: f.timestamp, testcases: f.testcases })),
    ...(last === null ? {} : { last_run: last }),
    testcases_read: v.testcasesRead,
    testcases_matched: v.testcasesMatched,
    testcases_unmatched: v.unmatched.length,
  };
}
