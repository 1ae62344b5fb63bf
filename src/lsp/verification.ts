// What the editor shows of the last test run (docs/verification.md, "speky lsp"): a hover on a tag
// tells its test plan's or requirement's status and each tagged test's result, and a code lens
// above a test plan tells its status. Nothing without results.
import type { Model } from "../model/model.js";
import { statusRunTime } from "../model/verification.js";
import { md } from "./describe.js";

/** Hover lines show this many tagged tests at most. */
const MAX_RUNS = 5;
const WORDS: Record<string, string> = {
  passed: "passed",
  failed: "failed",
  skipped: "skipped",
  not_run: "not run",
  incomplete: "incomplete",
  manual: "manual",
  verified: "verified",
  partially_verified: "partially verified",
  unverified: "unverified",
  failing: "failing",
};

// speky:speky-ts#RESULTS-HOVER-DEFUSED
/**
 * Markdown text without formatting: the repository's text (a failure message is) is shown as
 * text on one line, escaped and link-defused as spec text is (md), and no `+`, `-` or `.` of it
 * starts a list.
 */
const plain = (s: string) => md(s.replace(/[\r\n]+/g, " ")).replace(/(?<!\\)[+\-.]/g, "\\$&");
/** A path as code, or as text when a backtick in it would end the code span. */
const codeOrPlain = (s: string) => (s.includes("`") ? plain(s) : `\`${s}\``);

// speky:speky-ts#RESULTS-LSP
/** The hover's paragraph on the last run, "" without results. */
export function verificationHover(model: Model, id: string): string {
  const v = model.verification;
  const item = model.byId.get(id);
  if (!v || !item) return "";
  // The run that gave this status, not the newest results file of all.
  const last = statusRunTime(model, id);
  const when = last ? ` (run of ${plain(last)})` : "";
  if (item.kind === "requirement") {
    const status = v.requirements.get(id) ?? "unverified";
    const plans = (model.testedBy.get(id) ?? []).map((t) => `${plain(t.id)} ${WORDS[v.tests.get(t.id) ?? "manual"]}`);
    return `\n\n**Verification:** ${WORDS[status]}${when}${plans.length > 0 ? `: ${plans.join(", ")}` : ""}`;
  }
  const status = v.tests.get(id) ?? "manual";
  const refs = (model.codeReferencesById.get(id) ?? []).filter((r) => r.is_test);
  const lines = refs.slice(0, MAX_RUNS).map((ref) => {
    const r = v.references.get(ref)!;
    const message = r.message ? `: ${plain(r.message)}` : "";
    return `- ${WORDS[r.status]}: ${codeOrPlain(`${ref.file}:${ref.line}`)} ${plain(ref.symbol ?? "")}${message}`;
  });
  if (refs.length > MAX_RUNS) lines.push(`- and ${refs.length - MAX_RUNS} more`);
  return `\n\n**Last run:** ${WORDS[status]}${when}${lines.length > 0 ? `\n\n${lines.join("\n")}` : ""}`;
}

/** A test plan's code lens: "last run: failed (1 of 3 tagged tests failed)", or null without results. */
export function testLensTitle(model: Model, id: string): string | null {
  const v = model.verification;
  if (!v || model.byId.get(id)?.kind !== "test") return null;
  const refs = (model.codeReferencesById.get(id) ?? []).filter((r) => r.is_test);
  const failed = refs.filter((r) => v.references.get(r)?.status === "failed").length;
  const passed = refs.filter((r) => v.references.get(r)?.status === "passed").length;
  const status = WORDS[v.tests.get(id) ?? "manual"];
  if (refs.length === 0) return `last run: ${status}`;
  return `last run: ${status} (${passed} of ${refs.length} tagged ${refs.length === 1 ? "test" : "tests"} passed${failed > 0 ? `, ${failed} failed` : ""})`;
}
