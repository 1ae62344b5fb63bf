import { z } from "zod";
import type { Requirement } from "../../../loader/types.js";
import { byId, summary } from "../../../model/answer-shapes.js";
import { coverageScope } from "../../../model/coverage.js";
import type { Model } from "../../../model/model.js";
import { REQUIREMENT_STATUSES, type RequirementStatus } from "../../../model/verification.js";
import { resultsMetadata } from "../../../model/verification-views.js";
import { quote } from "../../../quote.js";
import { lazy } from "../../answers/paging.js";
import * as schema from "../../schemas.js";
import { defineTool, ToolError } from "../../tool.js";

/** The requirements counted: the coverage scope (and category), with the tag. */
function scopeOf(model: Model, category?: string, tag?: string): Requirement[] {
  if (tag && !model.tags.has(tag)) throw new ToolError(`Tag ${quote(tag)} not found`);
  const scope = coverageScope(model, category || undefined);
  if (scope === undefined) throw new ToolError(`Category ${quote(category ?? "")} not found`);
  return (tag ? scope.filter((r) => r.tags.includes(tag)) : [...scope]).sort(byId);
}

// speky:speky-ts#RESULTS-MCP
export function verificationStatus(model: Model, category?: string, tag?: string, scanning?: string | null) {
  const v = model.verification;
  // speky:speky-ts#MCP-VERIFICATION-LOADING
  if (!v && scanning) throw new ToolError(`${scanning}; the test results are read once it is done: call verification_status again then`);
  if (!v) throw new ToolError("No test results are given (speky-mcp --results GLOB, or test_results in the manifest)");
  const buckets = Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, [] as Requirement[]])) as Record<RequirementStatus, Requirement[]>;
  for (const req of scopeOf(model, category, tag)) buckets[v.requirements.get(req.id) ?? "unverified"].push(req);
  return {
    failing: lazy(buckets.failing, summary),
    unverified: lazy(buckets.unverified, summary),
    partially_verified: lazy(buckets.partially_verified, summary),
    verified: lazy(buckets.verified, summary),
    results: resultsMetadata(v),
    unmatched_testcases: lazy(v.unmatched, (u) => ({
      file: u.file,
      line: u.testcase.xmlLine,
      classname: u.testcase.classname,
      name: u.testcase.name,
    })),
  };
}

export const verificationStatusTool = defineTool({
  waitsForScan: true,
  name: "verification_status",
  title: "Verification status",
  description:
    "Partition requirements by what the last test run says: failing (a test plan failed), unverified (no test plan " +
    "passed), partially_verified (some passed, others manual, skipped or not run), verified (every test plan passed). " +
    "A test plan passes when every automated test tagged with its ID passed in the JUnit XML results. Also tells the " +
    "results files read, when each run happened, and the testcases that matched no tagged test. Covers the " +
    "manifests' coverage_categories; category and tag select within them. With limit, pages run through the lists in order.",
  input: {
    category: z.string().optional().describe("Exact requirement category, among the manifests' coverage_categories"),
    tag: schema.tagArg,
  },
  output: {
    failing: schema.summaries("Requirements with a failed test plan"),
    unverified: schema.summaries("Requirements none of whose test plans passed"),
    partially_verified: schema.summaries("Requirements with some test plans passed, none failed"),
    verified: schema.summaries("Requirements whose test plans all passed"),
    results: z.object({
      files: z.array(
        z.object({
          file: z.string().describe("Results file, relative to the manifest root or the server's folder"),
          timestamp: z.string().describe("When the run happened: the file's timestamp, else its modification time"),
          testcases: z.number().int(),
        }),
      ),
      last_run: z.string().optional().describe("The latest of the files' timestamps"),
      testcases_read: z.number().int(),
      testcases_matched: z.number().int().describe("Testcases that ran a tagged test"),
      testcases_unmatched: z.number().int(),
    }),
    unmatched_testcases: z
      .array(z.object({ file: z.string(), line: z.number().int(), classname: z.string(), name: z.string() }))
      .describe("Testcases that matched no tagged test, by results file and line"),
  },
  pages: ["failing", "unverified", "partially_verified", "verified", "unmatched_testcases"],
  run: (model, { category, tag }, state) => verificationStatus(model, category, tag, state?.scanning?.describe()),
});
