// What test results add to `speky check` and `list_problems`: the results files' own problems,
// each failed testcase of a tagged test (at the tag, naming its test plan and the requirements
// it verifies), and with --require-verified every requirement of the coverage scope that is not
// verified. Nothing without results.
import { type Diagnostic, locatedAt } from "../diagnostics.js";
import { plural } from "../quote.js";
import { coverageScope } from "./coverage.js";
import type { Model } from "./model.js";
import { itemPath, projectRoots, referencePath } from "./paths.js";

/** What an item verifies, in words: "test plan T (verifies R1, R2)" or "requirement R". */
function whatFailed(model: Model, id: string): string | null {
  const item = model.byId.get(id);
  if (!item) return null;
  if (item.kind === "requirement") return `requirement ${id}`;
  const verifies = [...new Set(item.ref)].sort();
  return `test plan ${id} (verifies ${verifies.join(", ")})`;
}

// speky:speky-ts#RESULTS-CHECK
export function verificationProblems(model: Model): Diagnostic[] {
  const v = model.verification;
  if (!v) return [];
  const out: Diagnostic[] = [...v.diagnostics];
  const roots = projectRoots(model);
  for (const [ref, result] of v.references) {
    const what = whatFailed(model, ref.id);
    if (what === null) continue;
    for (const f of result.failures) {
      const where = `${f.file}:${f.testcase.xmlLine}`;
      const message = f.message === undefined ? "" : `: ${f.message}`;
      const d: Diagnostic = {
        file: ref.file,
        line: ref.tag_line,
        column: ref.tag_column,
        severity: "error",
        message: `${what} failed: ${f.testcase.outcome === "error" ? "error in" : "failure of"} ${f.testcase.name} (${where})${message}`,
      };
      const at = referencePath(roots, ref);
      out.push(at === undefined ? d : locatedAt(d, at));
    }
  }
  return out;
}

const STATUS_WORDS = { failing: "failing", partially_verified: "partially verified", unverified: "unverified", verified: "verified" };

/** --require-verified: an error at each requirement of the coverage scope that is not verified. */
export function unverifiedProblems(model: Model): Diagnostic[] {
  const v = model.verification;
  const roots = projectRoots(model);
  return (coverageScope(model) ?? [])
    .map((req) => ({ req, status: v?.requirements.get(req.id) ?? "unverified" }))
    .filter(({ status }) => status !== "verified")
    .map(({ req, status }) => {
      const tests = (model.testedBy.get(req.id) ?? []).length;
      const why = v
        ? `${STATUS_WORDS[status]}, ${plural(tests, "test plan")}`
        : "no test results are given (--results, or test_results in the manifest)";
      const d: Diagnostic = { ...req.loc, severity: "error", message: `requirement ${req.id} is not verified (${why})` };
      const at = itemPath(roots, req);
      return at === undefined ? d : locatedAt(d, at);
    });
}
