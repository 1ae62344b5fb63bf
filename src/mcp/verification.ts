// The verification fields that get_test and get_requirement gain when results are given
// (verification.md, "Where it shows"): one function each, so that a tool adds its field in one
// line and nothing at all without results.
import { z } from "zod";
import { compareCodeReferences, type Model } from "../model/model.js";
import type { TestPlanStatus } from "../model/verification-types.js";

export const testVerificationSchema = z
  .object({
    status: z.enum(["manual", "passed", "failed", "incomplete", "not_run"]),
    runs: z
      .array(
        z.object({
          file: z.string().describe("The tagged test's file, relative to the project root"),
          line: z.number().int(),
          symbol: z.string().describe("Qualified name of the tagged test"),
          status: z.enum(["passed", "failed", "skipped", "not_run"]),
          time: z.number().optional().describe("Seconds, summed over its testcases (parametrized cases, subtests)"),
          message: z.string().optional().describe("The first failure's first line"),
        }),
      )
      .describe("Each automated test tagged with this ID, with its result in the last run"),
  })
  .optional()
  .describe("From the test results; present only when results are given");

export const requirementVerificationSchema = z
  .object({
    status: z.enum(["verified", "partially_verified", "unverified", "failing"]),
    passed: z.array(z.string()).describe("Test IDs whose automated tests all passed"),
    failed: z.array(z.string()),
    incomplete: z.array(z.string()).describe("Some skipped or not run, none failed"),
    not_run: z.array(z.string()),
    manual: z.array(z.string()).describe("Test plans without an automated test"),
  })
  .optional()
  .describe("From the test results; present only when results are given");

export type TestVerification = NonNullable<z.infer<typeof testVerificationSchema>>;
export type RequirementVerification = NonNullable<z.infer<typeof requirementVerificationSchema>>;

// speky:speky-ts#RESULTS-MCP
/** `{verification}` of a test, or nothing without results. */
export function testVerification(model: Model, id: string): { verification?: TestVerification } {
  const v = model.verification;
  if (!v) return {};
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
  return { verification: { status: v.tests.get(id) ?? "manual", runs } };
}

/** `{verification}` of a requirement, or nothing without results. */
export function requirementVerification(model: Model, id: string): { verification?: RequirementVerification } {
  const v = model.verification;
  if (!v) return {};
  const by: Record<TestPlanStatus, string[]> = { passed: [], failed: [], incomplete: [], not_run: [], manual: [] };
  for (const test of model.testedBy.get(id) ?? []) by[v.tests.get(test.id) ?? "manual"].push(test.id);
  for (const list of Object.values(by)) list.sort();
  return { verification: { status: v.requirements.get(id) ?? "unverified", ...by } };
}
