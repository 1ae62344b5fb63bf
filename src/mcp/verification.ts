// The verification fields that get_test and get_requirement gain when results are given
// (docs/verification.md, "Where it shows"): one function each, so that a tool adds its field in one
// line and nothing at all without results.
import { z } from "zod";
import type { Model } from "../model/model.js";
import { requirementVerificationView, testVerificationView } from "../model/verification-views.js";

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
  const verification = testVerificationView(model, id);
  return verification ? { verification } : {};
}

/** `{verification}` of a requirement, or nothing without results. */
export function requirementVerification(model: Model, id: string): { verification?: RequirementVerification } {
  const verification = requirementVerificationView(model, id);
  return verification ? { verification } : {};
}
