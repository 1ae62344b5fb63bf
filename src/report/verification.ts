// What the report shows of the test results (docs/verification.md, "speky report"): a summary per
// category beside the coverage one, the run's time, each requirement's and test plan's status
// on its view, and the same summary in Markdown. Nothing at all without results.

import { compareStrings } from "../diagnostics.js";
import { coverageScope } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import { lastRunTime, REQUIREMENT_STATUSES, type RequirementStatus, statusRunTime } from "../model/verification.js";
import { esc } from "../text/html-escape.js";
import { plainText } from "../text/markdown-inline.js";
import type { ReportData } from "./data.js";

export const STATUS_LABELS: Record<RequirementStatus, string> = {
  failing: "Failing",
  unverified: "Unverified",
  partially_verified: "Partially verified",
  verified: "Verified",
};

const TEST_LABELS: Record<string, string> = {
  manual: "Manual",
  passed: "Passed",
  failed: "Failed",
  incomplete: "Incomplete",
  not_run: "Not run",
  skipped: "Skipped",
};

interface Row {
  category: string;
  counts: Record<RequirementStatus, number>;
  total: number;
}

/** Requirements of the coverage scope per status and category, and in all. */
export function verificationRows(model: Model): { rows: Row[]; all: Row } | null {
  const v = model.verification;
  if (!v) return null;
  const empty = () => Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0])) as Record<RequirementStatus, number>;
  const per = new Map<string, Row>();
  const all: Row = { category: "All", counts: empty(), total: 0 };
  for (const req of coverageScope(model) ?? []) {
    let row = per.get(req.category);
    if (!row) per.set(req.category, (row = { category: req.category, counts: empty(), total: 0 }));
    const status = v.requirements.get(req.id) ?? "unverified";
    row.counts[status]++;
    row.total++;
    all.counts[status]++;
    all.total++;
  }
  return { rows: [...per.values()].sort((a, b) => compareStrings(a.category, b.category)), all };
}

const runLine = (model: Model) => {
  const v = model.verification!;
  const last = lastRunTime(v);
  const files = `${v.files.length} results ${v.files.length === 1 ? "file" : "files"}`;
  return {
    last,
    files,
    counts: `${v.testcasesRead} testcases read, ${v.testcasesMatched} matched a tagged test, ${v.unmatched.length} matched none`,
  };
};

export const statusBadge = (status: string) =>
  `<span class="badge status-${esc(status)}">${esc(TEST_LABELS[status] ?? STATUS_LABELS[status as RequirementStatus] ?? status)}</span>`;

// speky:speky-ts#RESULTS-REPORT
/** The index's verification section, or "" without results. */
export function verificationSection(data: ReportData): string {
  const table = verificationRows(data.model);
  if (!table) return "";
  const { last, files, counts } = runLine(data.model);
  const when = last ? `the run of <time datetime="${esc(last)}">${esc(last)}</time>` : "no run";
  const head = `<tr><th scope="col">Category</th>${REQUIREMENT_STATUSES.map((s) => `<th scope="col" class="num">${STATUS_LABELS[s]}</th>`).join("")}<th scope="col" class="num">Total</th></tr>`;
  const row = (r: Row, cell = "th") =>
    `<tr><${cell} scope="row">${esc(r.category)}</${cell}>${REQUIREMENT_STATUSES.map((s) => `<td class="num">${r.counts[s]}</td>`).join("")}<td class="num">${r.total}</td></tr>`;
  return (
    `<section aria-labelledby="verification"><h2 id="verification">Verification</h2>` +
    `<p>From ${when} (${esc(files)}; ${esc(counts)}): a requirement is verified when every test plan of it passed, a test plan when every automated test tagged with its ID passed.</p>` +
    `<div class="scroll" role="region" aria-label="Verification per category" tabindex="0"><table class="coverage verification"><caption>Requirements per verification status and category</caption>` +
    `<thead>${head}</thead><tbody>${table.rows.map((r) => row(r)).join("")}</tbody><tfoot>${row(table.all)}</tfoot></table></div></section>\n`
  );
}

/** A requirement's status as a fact of its view, or "". */
export function requirementStatusFact(data: ReportData, id: string): string {
  const status = data.model.verification?.requirements.get(id);
  return status ? `<dt>Verification</dt><dd>${statusBadge(status)}</dd>` : "";
}

/** A test plan's status beside its title in a requirement's view, or "". */
export function testStatusBadge(data: ReportData, id: string): string {
  const status = data.model.verification?.tests.get(id);
  return status ? ` ${statusBadge(status)}` : "";
}

/** A test plan's status and its runs, for its view, or "". */
export function testStatusFact(data: ReportData, id: string): string {
  const v = data.model.verification;
  const status = v?.tests.get(id);
  if (!v || !status) return "";
  const runs = (data.model.codeReferencesById.get(id) ?? [])
    .filter((r) => r.is_test)
    .map((ref) => {
      const r = v.references.get(ref)!;
      const message = r.message ? ` <span class="text">${esc(r.message)}</span>` : "";
      return `<li>${statusBadge(r.status)} <code>${esc(`${ref.file}:${ref.line}`)}</code> <code>${esc(ref.symbol ?? "")}</code>${message}</li>`;
    });
  const last = statusRunTime(data.model, id);
  const list = runs.length > 0 ? `<ul class="runs">${runs.join("")}</ul>` : "";
  return `<dt>Last run</dt><dd>${statusBadge(status)}${last ? ` <time datetime="${esc(last)}">${esc(last)}</time>` : ""}${list}</dd>`;
}

/** The Markdown summary's verification section, or no lines. */
export function markdownVerification(data: ReportData): string[] {
  const table = verificationRows(data.model);
  if (!table) return [];
  const { last, files, counts } = runLine(data.model);
  const out = ["### Verification", "", `From ${last ? `the run of ${plainText(last)}` : "no run"} (${files}; ${counts}).`, ""];
  out.push(`| Category | ${REQUIREMENT_STATUSES.map((s) => STATUS_LABELS[s]).join(" | ")} | Total |`);
  out.push(`| --- | ${REQUIREMENT_STATUSES.map(() => "---:").join(" | ")} | ---: |`);
  const row = (name: string, r: Row) => `| ${name} | ${REQUIREMENT_STATUSES.map((s) => r.counts[s]).join(" | ")} | ${r.total} |`;
  for (const r of table.rows) out.push(row(plainText(r.category), r));
  out.push(row("**All**", table.all), "");
  return out;
}
