// `speky report --diff BASE`: the "changes" page, what the working tree changed in the
// specification since BASE (src/diff, the same document `speky diff --format json` prints).
// IDs still in the specification link to their views; code links to source_links URLs. A
// changed item shows its text as it was and as it is; with several projects, a Project column.
import { severalProjects } from "../../diff/format-text.js";
import { type Changes, type ImpactEntry, type ItemChanges, linkOf, type Problem, type RefShape } from "../../diff/shapes.js";
import type { Item } from "../../loader/types.js";
import { esc } from "../../text/html-escape.js";
import { safeHttpUrl } from "../../text/markdown-inline.js";
import { BUCKET_LABELS, problemCount, type ReportData } from "../data.js";
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

/** The text fields of an item, by the spec's names. */
const TEXT_FIELDS = ["short", "long", "client_statement", "initial"] as const;

function textOf(item: Item | undefined, field: (typeof TEXT_FIELDS)[number]): string {
  const value = (item as unknown as Record<string, unknown> | undefined)?.[field];
  return typeof value === "string" ? value : "";
}

// speky:speky-ts#DIFF-REPORT-TEXTS
/** The changed text fields of an item, each as it was and as it is. */
function textChanges(data: ReportData, id: string, fields: readonly string[]): string {
  const was = data.changesBase?.byId.get(id);
  const now = data.model.byId.get(id);
  const parts = TEXT_FIELDS.filter((f) => fields.includes(f)).map(
    (f) =>
      `<dt>${f}, before</dt><dd class="was">${esc(textOf(was, f)) || '<span class="none">(none)</span>'}</dd>` +
      `<dt>${f}, after</dt><dd class="now">${esc(textOf(now, f)) || '<span class="none">(none)</span>'}</dd>`,
  );
  return parts.length === 0 ? "" : `<dl class="text-change">${parts.join("")}</dl>`;
}

function itemRows(data: ReportData, changes: ItemChanges, project: (p: string | null) => string | null): string[][] {
  const title = (short?: string) => esc(short ?? "");
  const row = (cells: string[], p: string | null) => {
    const name = project(p);
    return name === null ? cells : [cells[0], esc(name), ...cells.slice(1)];
  };
  return [
    ...changes.added.map((s) => row(["added", itemLink(data, s.id, ""), title(s.short), "", ""], s.project)),
    ...changes.removed.map((s) => row(["removed", `<span class="id">${esc(s.id)}</span>`, title(s.short), "", ""], s.project)),
    ...changes.changed.map((c) =>
      row(
        [
          "changed",
          itemLink(data, c.id, ""),
          title(data.model.byId.get(c.id)?.short),
          esc(c.fields.join(", ")),
          textChanges(data, c.id, c.fields),
        ],
        c.project,
      ),
    ),
    ...changes.renamed.map((r) =>
      row(
        [
          "renamed",
          `<span class="id">${esc(r.from)}</span> → ${itemLink(data, r.to, "")}`,
          title(data.model.byId.get(r.to)?.short),
          "id",
          "",
        ],
        r.project,
      ),
    ),
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

/** Files of a revision left out of the comparison (a link no file system takes), before the sections. */
function warnings(changes: Changes): string {
  return (Object.entries(changes.warnings ?? {}) as [string, Problem[]][])
    .map(
      ([side, problems]) =>
        `<p class="status">Files of the ${esc(side)} side not compared (${plural(problems.length, "file")}):</p>` +
        `<ul>${problems.map((p) => `<li><code>${esc(p.file)}</code> ${esc(p.message)}</li>`).join("")}</ul>\n`,
    )
    .join("");
}

// speky:speky-ts#DIFF-REPORT
export function changesPage(data: ReportData, changes: Changes): string {
  const heading = `<h1>Changes since <code>${esc(changes.base)}</code> <span class="sub">${esc(data.title)}</span></h1>\n<p class="generated">Commit <code title="${esc(changes.base_commit)}">${esc(changes.base_commit.slice(0, 12))}</code> against the working tree the report was made from.</p>\n`;
  const frame = (body: string) =>
    page({
      title: `Changes — ${data.title}`,
      root: "",
      section: "changes",
      body: heading + warnings(changes) + body,
      problems: problemCount(data),
      changes: true,
    });
  if (changes.load_errors) return frame(loadErrors(changes.load_errors));
  // speky:speky-ts#DIFF-REPORT-PROJECTS
  const several = severalProjects(changes);
  const project = (p: string | null) => (several ? (p ?? "") : null);
  const withProject = (cells: string[], p: string | null) => (several ? [cells[0], esc(p ?? ""), ...cells.slice(1)] : cells);
  const heads = (cells: string[]) => (several ? [cells[0], "Project", ...cells.slice(1)] : cells);
  const reqs = itemRows(data, changes.requirements!, project);
  const tests = itemRows(data, changes.tests!, project);
  const code = changes.code_references!;
  const refs = [
    ...code.added.map((r) => withProject(refCells(data, "added", r), r.project)),
    ...code.removed.map((r) => withProject(refCells(data, "removed", r), r.project)),
    ...code.moved.map((m) =>
      withProject(
        [
          "moved",
          itemLink(data, m.id, ""),
          `${place(`${m.from.file}:${m.from.line}`, linkOf(m.from))} → ${place(`${m.to.file}:${m.to.line}`, linkOf(m.to))}`,
          m.from.symbol === m.to.symbol
            ? `<code>${esc(m.to.symbol ?? "")}</code>`
            : `<code>${esc(m.from.symbol ?? "")}</code> → <code>${esc(m.to.symbol ?? "")}</code>`,
          m.to.is_test ? "yes" : "no",
        ],
        m.project,
      ),
    ),
  ];
  const manifests = changes.manifests!.map((m) =>
    withProject([esc(m.change), `<code>${esc(m.file)}</code>`, m.keys.map((k) => `<code>${esc(k)}</code>`).join(" ")], m.project),
  );
  const coverage = changes.coverage!.map((c) =>
    withProject([itemLink(data, c.id, ""), BUCKET_LABELS[c.from], BUCKET_LABELS[c.to]], c.project),
  );
  const impact = changes.impact!.map((e) => withProject(impactCells(data, e), e.project));
  const suspect = changes.suspect!.map((s) => [
    itemLink(data, s.id, ""),
    s.code.length === 0
      ? `<span class="none">no tagged definition</span>`
      : s.code.map((r) => place(`${r.file}:${r.line}`, linkOf(r))).join(" "),
  ]);
  const rerun = changes.rerun!;
  const itemHeads = heads(["Change", "ID", "Title", "Fields", "Text"]);
  const body =
    section(
      "changed-manifests",
      `Manifests (${manifests.length})`,
      table("Manifests", heads(["Change", "Manifest", "Keys"]), manifests, "No manifest changed."),
    ) +
    section("changed-requirements", `Requirements (${reqs.length})`, table("Requirements", itemHeads, reqs, "No requirement changed.")) +
    section("changed-tests", `Tests (${tests.length})`, table("Tests", itemHeads, tests, "No test changed.")) +
    section(
      "changed-code",
      `Code references (${refs.length})`,
      table(
        "Code references",
        heads(["Change", "ID", "Location", "Symbol", "Automated test"]),
        refs,
        "No code tag was added, removed or moved.",
      ),
    ) +
    section(
      "changed-coverage",
      `Coverage (${coverage.length})`,
      table("Coverage", heads(["Requirement", "Before", "After"]), coverage, "No coverage changed."),
    ) +
    section(
      "impact",
      `Impact (${impact.length})`,
      table("Impact", heads(["Definition", "Lines", "IDs"]), impact, "No tagged definition was touched."),
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
