// What test results add to `speky check` and `list_problems`: the results files' own problems,
// each failed testcase of a tagged test (at the tag, naming its test plan and the requirements
// it verifies), and with --require-verified every requirement of the coverage scope that is not
// verified. Nothing without results.
import { type Diagnostic, locatedAt } from "../diagnostics.js";
import { plural } from "../quote.js";
import { coverageScope } from "./coverage.js";
import type { Model } from "./model.js";
import { itemPath, projectRoots, referencePath } from "./paths.js";
import type { Failure } from "./verification-types.js";

/** What an item verifies, in words: "test plan T (verifies R1, R2)" or "requirement R". */
function whatFailed(model: Model, id: string): string | null {
  const item = model.byId.get(id);
  if (!item) return null;
  if (item.kind === "requirement") return `requirement ${id}`;
  const verifies = [...new Set(item.ref)].sort();
  return `test plan ${id} (verifies ${verifies.join(", ")})`;
}

/** How a results file is named in a message: its displayed path (the model's), or check's own. */
export type ResultsPath = (failure: Failure) => string;

/** Where the testcase is in its results file: line and column (pytest writes one line). */
function xmlPlace(f: Failure): string {
  const { xmlLine, xmlColumn } = f.testcase;
  return xmlColumn === undefined ? `${xmlLine}` : `${xmlLine}:${xmlColumn}`;
}

// speky:speky-ts#RESULTS-CHECK
// speky:speky-ts#RESULTS-FAILED-AT-REFERENCE
/**
 * Each failed testcase of a tagged test: an error at the code reference as `speky scan`
 * reports it (the test's definition, where an editor and an annotation land), naming the test
 * as its runner does and the testcase's place in its results file.
 */
export function verificationProblems(model: Model, resultsPath: ResultsPath = (f) => f.file): Diagnostic[] {
  const v = model.verification;
  if (!v) return [];
  const out: Diagnostic[] = [...v.diagnostics];
  const roots = projectRoots(model);
  for (const [ref, result] of v.references) {
    const what = whatFailed(model, ref.id);
    if (what === null) continue;
    for (const f of result.failures) {
      const where = `${resultsPath(f)}:${xmlPlace(f)}`;
      const message = f.message === undefined ? "" : `: ${f.message}`;
      const d: Diagnostic = {
        file: ref.file,
        line: ref.line,
        column: ref.column,
        severity: "error",
        message: `${what} failed: ${f.testcase.outcome === "error" ? "error in" : "failure of"} ${f.test} (${where})${message}`,
      };
      const at = referencePath(roots, ref);
      out.push(at === undefined ? d : locatedAt(d, at));
    }
  }
  return out;
}

const STATUS_WORDS = { failing: "failing", partially_verified: "partially verified", unverified: "unverified", verified: "verified" };

/** At most this many test plans, and tests of each, named in one requirement's message. */
const NAMED = 10;

function listed(items: readonly string[]): string {
  const shownItems = items.slice(0, NAMED).join(", ");
  return items.length > NAMED ? `${shownItems} and ${items.length - NAMED} more` : shownItems;
}

/**
 * What keeps a requirement from being verified, test plan by test plan: the plans that are not
 * passed with their status, and for each the tests (as the scan names them) that failed or did
 * not run. Empty when the requirement has no test plan.
 */
function whyNotVerified(model: Model, requirementId: string): string {
  const v = model.verification!;
  const parts: string[] = [];
  const plans = (model.testedBy.get(requirementId) ?? []).map((t) => t.id).sort();
  for (const id of plans) {
    const status = v.tests.get(id) ?? "manual";
    if (status === "passed") continue;
    const tests = (model.codeReferencesById.get(id) ?? [])
      .filter((r) => r.is_test)
      .map((r) => ({ r, result: v.references.get(r) }))
      .filter(({ result }) => result !== undefined && result.status !== "passed")
      .map(({ r, result }) => {
        const why = result!.status === "not_run" && result!.message !== undefined ? ` (${result!.message})` : "";
        return `${r.symbol ?? `${r.file}:${r.line}`} ${result!.status.replace("_", " ")}${why}`;
      });
    const plan = `${id} ${status.replace("_", " ")}`;
    parts.push(tests.length > 0 ? `${plan}: ${listed([...new Set(tests)].sort())}` : plan);
  }
  return parts.length > 0 ? `; ${listed(parts)}` : "";
}

// speky:speky-ts#RESULTS-REQUIRE-NAMES
/**
 * --require-verified: an error at each requirement of the coverage scope that is not verified,
 * naming the test plans that did not pass and their tests that failed or did not run.
 */
export function unverifiedProblems(model: Model): Diagnostic[] {
  const v = model.verification;
  const roots = projectRoots(model);
  return (coverageScope(model) ?? [])
    .map((req) => ({ req, status: v?.requirements.get(req.id) ?? "unverified" }))
    .filter(({ status }) => status !== "verified")
    .map(({ req, status }) => {
      const tests = (model.testedBy.get(req.id) ?? []).length;
      const why = v
        ? `${STATUS_WORDS[status]}, ${plural(tests, "test plan")}${whyNotVerified(model, req.id)}`
        : "no test results are given (--results, or test_results in the manifest)";
      const d: Diagnostic = { ...req.loc, severity: "error", message: `requirement ${req.id} is not verified (${why})` };
      const at = itemPath(roots, req);
      return at === undefined ? d : locatedAt(d, at);
    });
}
