// Verification from test results (docs/verification.md, "Status"): each tagged test's outcome in
// the last run, each test plan's and each requirement's status. A model has it only when
// results were given; without, every answer stays what it was.
import { compareStrings } from "../diagnostics.js";
import { failureLine, Matcher } from "../results/match.js";
import { type ResultsRule, symbolSplitter } from "../results/rules.js";
import type { ResultsFile, ResultsRead, Testcase } from "../results/types.js";
import type { CodeReference } from "../scan/types.js";
import { NO_TURNS, type Turns } from "../turns.js";
import type { Model } from "./model.js";
import { type FileTime, fileTimes, NotRunReasons } from "./not-run-reasons.js";
import { projectRoots } from "./paths.js";
import type { Failure, ReferenceResult, ReferenceStatus, RequirementStatus, TestPlanStatus, Verification } from "./verification-types.js";

export type * from "./verification-types.js";

export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = ["failing", "unverified", "partially_verified", "verified"];

const NOT_RUN: ReferenceResult = Object.freeze({ status: "not_run", testcases: 0, failures: [] }) as ReferenceResult;

/** A reference: failed if any testcase failed or errored, else passed if any passed, else skipped, else not run. */
function referenceResult(
  ref: CodeReference,
  matched: readonly { testcase: Testcase; rule: ResultsRule }[],
  files: readonly ResultsFile[],
): ReferenceResult {
  if (matched.length === 0) return NOT_RUN;
  let passed = false;
  let skipped = false;
  let time: number | undefined;
  const failures: Failure[] = [];
  const sources = new Set<number>();
  for (const { testcase, rule } of matched) {
    sources.add(testcase.source);
    if (testcase.time !== undefined) time = (time ?? 0) + testcase.time;
    if (testcase.outcome === "passed") passed = true;
    else if (testcase.outcome === "skipped") skipped = true;
    else {
      const message = failureLine(testcase, rule);
      failures.push({
        testcase,
        file: files[testcase.source].file,
        abs: files[testcase.source].abs,
        test: runnerName(ref, testcase, rule),
        ...(message === undefined ? {} : { message }),
        decorated: decorated(testcase, rule),
      });
    }
  }
  const status: ReferenceStatus = failures.length > 0 ? "failed" : passed ? "passed" : skipped ? "skipped" : "not_run";
  const result: ReferenceResult = { status, testcases: matched.length, failures };
  if (time !== undefined) result.time = Math.round(time * 1e6) / 1e6;
  const ranAt = latestTime([...sources].map((i) => files[i].timestamp));
  if (ranAt !== null) result.ranAt = ranAt;
  // A parametrized case or a subtest is named: it says which run of the definition failed.
  const first = failures.find((f) => f.message !== undefined);
  if (first) result.message = first.decorated ? `${first.testcase.name}: ${first.message}` : first.message;
  return result;
}

/**
 * A testcase as its runner names it: its name, preceded by the enclosing parts of the tagged
 * symbol when the name holds none (pytest's `test_fits[huge]` in class `TestBasket` is
 * `TestBasket.test_fits[huge]`, JUnit's `total()` is `BasketTest.total()`). A title path or a
 * name that holds its scopes (ctest's `Suite.Name`) is the runner's whole name already.
 */
function runnerName(ref: CodeReference, testcase: Testcase, rule: ResultsRule): string {
  const name = testcase.name.trim();
  if (rule.mode === "titles" || ref.symbol === null) return name;
  const groups = rule.name?.exec(name)?.groups;
  if (groups?.scopes !== undefined || (groups?.leaf !== undefined && !name.startsWith(groups.leaf))) return name;
  const splitter = symbolSplitter(rule, ref.language);
  let last: RegExpExecArray | null = null;
  for (const m of ref.symbol.matchAll(new RegExp(splitter.source, "gu"))) last = m;
  return last ? ref.symbol.slice(0, last.index + last[0].length) + name : name;
}

/** Whether a testcase's name says more than its definition's: a parametrized case, a subtest. */
function decorated(testcase: Testcase, rule: ResultsRule): boolean {
  if (rule.mode === "titles") return false;
  const leaf = rule.name?.exec(testcase.name)?.groups?.leaf?.trim();
  // JUnit writes a method's parameter types, `total()`: they name the definition, not one run.
  return leaf !== undefined && !testcase.name.trim().replace(/\(\)$/, "").endsWith(leaf);
}

/** A test plan: manual without an automated reference; failed, passed, not run or incomplete. */
function testPlanStatus(results: readonly ReferenceResult[]): TestPlanStatus {
  if (results.length === 0) return "manual";
  if (results.some((r) => r.status === "failed")) return "failed";
  if (results.every((r) => r.status === "passed")) return "passed";
  if (results.every((r) => r.status === "not_run")) return "not_run";
  return "incomplete";
}

/** A requirement: failing, verified (every test plan passed), unverified (none passed), else partially verified. */
function requirementStatus(plans: readonly TestPlanStatus[]): RequirementStatus {
  if (plans.some((s) => s === "failed")) return "failing";
  if (plans.length > 0 && plans.every((s) => s === "passed")) return "verified";
  if (!plans.includes("passed")) return "unverified";
  return "partially_verified";
}

// speky:speky-ts#RESULTS-STATUS
/**
 * The verification of a model from what its results files held. A server passes its Turns:
 * the loop over testcases then gives the event loop a turn every few milliseconds.
 */
export async function verify(model: Model, read: ResultsRead, turns: Turns = NO_TURNS, fileTime?: FileTime): Promise<Verification> {
  const matcher = new Matcher(model.codeReferences);
  const byRef = new Map<CodeReference, { testcase: Testcase; rule: ResultsRule }[]>();
  const unmatched: { file: string; testcase: Testcase }[] = [];
  let matchedCount = 0;
  for (const testcase of read.testcases) {
    // speky:speky-ts#RESULTS-RESPONSIVE
    if (turns.due()) await turns.take();
    const found = matcher.empty ? [] : matcher.match(testcase);
    if (found.length === 0) {
      unmatched.push({ file: read.files[testcase.source].file, testcase });
      continue;
    }
    matchedCount++;
    for (const { ref, rule } of found) {
      const list = byRef.get(ref);
      if (list) list.push({ testcase, rule });
      else byRef.set(ref, [{ testcase, rule }]);
    }
  }
  const references = new Map<CodeReference, ReferenceResult>();
  const languages = read.files.map(() => new Set<string>());
  for (const [ref, list] of byRef) for (const { testcase } of list) languages[testcase.source].add(ref.language);
  const reasons = new NotRunReasons(read.files, read.testcases, fileTime, languages);
  for (const ref of model.codeReferences) {
    if (!ref.is_test) continue;
    const result = referenceResult(ref, byRef.get(ref) ?? [], read.files);
    // A test that did not run says why when the results can tell (its message, on every surface).
    const why = result === NOT_RUN ? reasons.reason(ref) : undefined;
    references.set(ref, why === undefined ? result : { ...result, message: why });
  }
  const tests = new Map<string, TestPlanStatus>();
  for (const id of model.testIds) {
    const automated = (model.codeReferencesById.get(id) ?? []).filter((r) => r.is_test);
    tests.set(id, testPlanStatus(automated.map((r) => references.get(r)!)));
  }
  const requirements = new Map<string, RequirementStatus>();
  for (const id of model.requirementIds) {
    requirements.set(id, requirementStatus((model.testedBy.get(id) ?? []).map((t) => tests.get(t.id)!)));
  }
  unmatched.sort(
    (a, b) =>
      a.testcase.source - b.testcase.source || a.testcase.xmlLine - b.testcase.xmlLine || compareStrings(a.testcase.name, b.testcase.name),
  );
  return {
    files: read.files,
    testcasesRead: read.testcases.length,
    testcasesMatched: matchedCount,
    unmatched,
    diagnostics: read.diagnostics,
    references,
    tests,
    requirements,
  };
}

/** The model with its verification: a new frozen model, the same in every other field. */
export async function withVerification(model: Model, read: ResultsRead, turns: Turns = NO_TURNS): Promise<Model> {
  return Object.freeze({ ...model, verification: await verify(model, read, turns, fileTimes(projectRoots(model))) });
}

/** The latest of ISO 8601 times, as written; null when none parses. */
function latestTime(times: readonly string[]): string | null {
  let latest: { time: number; text: string } | null = null;
  for (const text of times) {
    const time = Date.parse(text);
    if (Number.isNaN(time)) continue;
    if (!latest || time > latest.time) latest = { time, text };
  }
  return latest?.text ?? null;
}

/** The latest run time of the results files (ISO 8601 as written), or null without a file. */
export function lastRunTime(verification: Verification): string | null {
  return latestTime(verification.files.map((f) => f.timestamp));
}

// speky:speky-ts#RESULTS-STATUS-TIME
/**
 * When the run that gave a test plan's status happened (a requirement's: its test plans'): the
 * latest time of the results files its tagged tests' testcases came from, not the newest file
 * of all. Null when none of its tests ran.
 */
export function statusRunTime(model: Model, id: string): string | null {
  const v = model.verification;
  const item = model.byId.get(id);
  if (!v || !item) return null;
  const plans = item.kind === "requirement" ? (model.testedBy.get(id) ?? []).map((t) => t.id) : [id];
  const times: string[] = [];
  for (const plan of plans) {
    for (const ref of model.codeReferencesById.get(plan) ?? []) {
      const ranAt = v.references.get(ref)?.ranAt;
      if (ranAt !== undefined) times.push(ranAt);
    }
  }
  return latestTime(times);
}
