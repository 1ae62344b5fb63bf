// `speky report --diff BASE`: the "changes" page, what the working tree changed in the
// specification since BASE (src/diff, the same document `speky diff --format json` prints).
// IDs still in the specification link to their views; code links to source_links URLs.
import { type Changes, type ImpactEntry, linkOf, type Problem, type RefShape } from "../../diff/shapes.js";
import { BUCKET_LABELS, problemCount, type ReportData } from "../data.js";
import { esc, safeHttpUrl } from "../escape.js";
import { itemLink, plural, section } from "./fragments.js";
import { page } from "./layout.js";

function place(text: string, url: string | undefined): string {
  const safe = safeHttpUrl(url);
  return safe === null ? `<code>${esc(text)}</code>` : `<a href="${esc(safe)}" rel="noreferrer"><code>${esc(text)}</code></a>`;
}

function table(caption: string, head: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="none">${esc(empty)}</p>`;
  return (
    `<div class="scroll" role="region" aria-label="${esc(caption)}" tabindex="0"><table class="changes"><caption class="vh">${esc(caption)}</caption>` +
    `<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n")}</tbody></table></div>`
  );
}

function itemRows(data: ReportData, changes: NonNullable<Changes["requirements"]>): string[][] {
  const title = (short?: string) => esc(short ?? "");
  return [
    ...changes.added.map((s) => ["added", itemLink(data, s.id, ""), title(s.short), ""]),
    ...changes.removed.map((s) => ["removed", `<span class="id">${esc(s.id)}</span>`, title(s.short), ""]),
    ...changes.changed.map((c) => ["changed", itemLink(data, c.id, ""), title(data.model.byId.get(c.id)?.short), esc(c.fields.join(", "))]),
  ];
}

const refCells = (data: ReportData, change: string, r: RefShape) => [
  change,
  itemLink(data, r.id, ""),
  place(`${r.file}:${r.line}`, linkOf(r)),
  r.symbol === null ? `<span class="none">(free tag)</span>` : `<code>${esc(r.symbol)}</code>`,
  r.is_test ? "yes" : "no",
];

const impactCells = (data: ReportData, e: ImpactEntry) => [
  e.symbol === null ? `<span class="none">(around a free tag)</span>` : `<code>${esc(e.symbol)}</code>`,
  place(`${e.file}:${e.start_line}-${e.end_line}`, linkOf(e)),
  e.ids.map((id) => itemLink(data, id, "")).join(" "),
];

function loadErrors(errors: NonNullable<Changes["load_errors"]>): string {
  return (Object.entries(errors) as [string, Problem[]][])
    .map(
      ([side, problems]) =>
        `<p class="status">The ${esc(side)} side's specifications do not load (${plural(problems.length, "error")}); nothing was compared.</p>` +
        `<ul>${problems.map((p) => `<li><code>${esc(p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file)}</code> ${esc(p.message)}</li>`).join("")}</ul>`,
    )
    .join("\n");
}

// speky:speky-ts#DIFF-REPORT
export function changesPage(data: ReportData, changes: Changes): string {
  const heading = `<h1>Changes since <code>${esc(changes.base)}</code> <span class="sub">${esc(data.title)}</span></h1>\n<p class="generated">Commit <code title="${esc(changes.base_commit)}">${esc(changes.base_commit.slice(0, 12))}</code> against the working tree the report was made from.</p>\n`;
  const frame = (body: string) =>
    page({
      title: `Changes — ${data.title}`,
      root: "",
      section: "changes",
      body: heading + body,
      problems: problemCount(data),
      changes: true,
    });
  if (changes.load_errors) return frame(loadErrors(changes.load_errors));
  const reqs = itemRows(data, changes.requirements!);
  const tests = itemRows(data, changes.tests!);
  const refs = [
    ...changes.code_references!.added.map((r) => refCells(data, "added", r)),
    ...changes.code_references!.removed.map((r) => refCells(data, "removed", r)),
  ];
  const coverage = changes.coverage!.map((c) => [itemLink(data, c.id, ""), BUCKET_LABELS[c.from], BUCKET_LABELS[c.to]]);
  const impact = changes.impact!.map((e) => impactCells(data, e));
  const suspect = changes.suspect!.map((s) => [
    itemLink(data, s.id, ""),
    s.code.length === 0
      ? `<span class="none">no tagged definition</span>`
      : s.code.map((r) => place(`${r.file}:${r.line}`, linkOf(r))).join(" "),
  ]);
  const rerun = changes.rerun!;
  const body =
    section(
      "changed-requirements",
      `Requirements (${reqs.length})`,
      table("Requirements", ["Change", "ID", "Title", "Fields"], reqs, "No requirement changed."),
    ) +
    section("changed-tests", `Tests (${tests.length})`, table("Tests", ["Change", "ID", "Title", "Fields"], tests, "No test changed.")) +
    section(
      "changed-code",
      `Code references (${refs.length})`,
      table("Code references", ["Change", "ID", "Location", "Symbol", "Automated test"], refs, "No code tag was added or removed."),
    ) +
    section(
      "changed-coverage",
      `Coverage (${coverage.length})`,
      table("Coverage", ["Requirement", "Before", "After"], coverage, "No coverage changed."),
    ) +
    section(
      "impact",
      `Impact (${impact.length})`,
      table("Impact", ["Definition", "Lines", "IDs"], impact, "No tagged definition was touched."),
    ) +
    section(
      "suspect",
      `Suspect (${suspect.length})`,
      table("Requirements whose text changed while their tagged code did not", ["Requirement", "Tagged code"], suspect, "No suspect link."),
    ) +
    section(
      "rerun",
      `Tests to rerun (${rerun.length})`,
      rerun.length === 0
        ? `<p class="none">None.</p>`
        : `<ul class="ids">${rerun.map((id) => `<li>${itemLink(data, id, "")}</li>`).join("")}</ul>`,
    );
  return frame(body);
}
