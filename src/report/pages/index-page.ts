// The index: what was generated from where, counts, coverage per category, and the table of
// every requirement. The table is in the HTML (readable without script, printable); the
// script filters and sorts its rows from a JSON copy of the searchable text.
import { compareStrings, escapeControl } from "../../diagnostics.js";
import type { CoverageBucket } from "../../model/coverage.js";
import { grouped } from "../../quote.js";
import { esc, jsonForScript } from "../../text/html-escape.js";
import { cut, SEARCH_TEXT_CHARS, TITLE_CHARS } from "../bounds.js";
import { BUCKET_LABELS, BUCKETS, problemCount, type ReportData } from "../data.js";
import { verificationSection } from "../verification.js";
import { bucketBadge, plural, requirementHref } from "./fragments.js";
import { pageParts } from "./layout.js";

function generatedLine(data: ReportData): string {
  const { time, commit, uncommitted } = data.generation;
  const when = `<time datetime="${esc(time)}">${esc(time.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC"))}</time>`;
  const from = commit ? ` from commit <code title="${esc(commit)}">${esc(commit.slice(0, 12))}</code>` : "";
  // speky:speky-ts#REPORT-UNCOMMITTED
  const dirty = uncommitted
    ? `, <strong class="uncommitted">with uncommitted changes</strong> (${uncommitted === 1 ? "1 file read differs" : `${uncommitted} files read differ`} from it)`
    : "";
  return `<p class="generated">Generated ${when}${from}${dirty}.</p>`;
}

function bar(counts: Record<CoverageBucket, number>, total: number, label: string): string {
  if (total === 0) return "";
  let x = 0;
  const rects = BUCKETS.filter((b) => counts[b] > 0).map((b) => {
    const width = (100 * counts[b]) / total;
    const rect = `<rect class="${b}" x="${x.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10"><title>${BUCKET_LABELS[b]}: ${counts[b]}</title></rect>`;
    x += width;
    return rect;
  });
  const described = BUCKETS.map((b) => `${BUCKET_LABELS[b]} ${counts[b]}`).join(", ");
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${esc(`${label}: ${described}`)}">${rects.join("")}</svg>`;
}

function coverageSection(data: ReportData): string {
  if (data.coverage.length === 0) return `<p class="none">No requirement is in the coverage scope.</p>`;
  const head = `<tr><th scope="col">Category</th>${BUCKETS.map((b) => `<th scope="col" class="num">${BUCKET_LABELS[b]}</th>`).join("")}<th scope="col" class="num">Total</th><th scope="col" class="chart">Chart</th></tr>`;
  const row = (name: string, counts: Record<CoverageBucket, number>, total: number, cell = "th") =>
    `<tr><${cell} scope="row">${esc(name)}</${cell}>${BUCKETS.map((b) => `<td class="num">${counts[b]}</td>`).join("")}<td class="num">${total}</td><td class="chart">${bar(counts, total, name)}</td></tr>`;
  const total = BUCKETS.reduce((n, b) => n + data.coverageTotal[b], 0);
  const legend = BUCKETS.map((b) => `<li><span class="swatch ${b}" aria-hidden="true"></span>${BUCKET_LABELS[b]}</li>`).join("");
  return (
    `<p>Test plan coverage, as the <code>test_plan_coverage</code> MCP tool reports it: a test is automated when code tagged with its ID is an automated test.</p>` +
    `<ul class="legend" aria-label="Legend">${legend}</ul>` +
    `<div class="scroll" role="region" aria-label="Coverage per category" tabindex="0"><table class="coverage"><caption>Requirements per coverage bucket and category</caption>` +
    `<thead>${head}</thead><tbody>${data.coverage.map((c) => row(c.category, c.counts, c.total)).join("")}</tbody>` +
    `<tfoot>${row("All", data.coverageTotal, total)}</tfoot></table></div>`
  );
}

const options = (values: Iterable<[string, string]>) =>
  [...values].map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join("");

// speky:speky-ts#REPORT-PROJECTS
/** The projects of the requirements, sorted: a Project column and filter when there are several. */
function projectsOf(data: ReportData): string[] {
  const names = new Set<string>();
  for (const r of data.requirements) if (r.project !== null) names.add(r.project);
  return [...names].sort(compareStrings);
}

function filters(data: ReportData, projects: readonly string[]): string {
  const categories = [...data.model.requirementsByCategory.keys()].sort(compareStrings);
  const tags = [...data.model.tags.keys()].sort(compareStrings);
  const project =
    projects.length > 1
      ? `<div class="field"><label for="f-project">Project</label><select id="f-project" name="project"><option value="">All</option>${options(projects.map((p) => [p, p]))}</select></div>`
      : "";
  return (
    `<form class="filters" id="filters" role="search" aria-label="Filter requirements" hidden>` +
    `<div class="field grow"><label for="q">Search</label><input type="search" id="q" name="q" autocomplete="off" spellcheck="false" placeholder="ID, title, tag or text"></div>` +
    project +
    `<div class="field"><label for="f-category">Category</label><select id="f-category" name="category"><option value="">All</option>${options(categories.map((c) => [c, c]))}</select></div>` +
    `<div class="field"><label for="f-tag">Tag</label><select id="f-tag" name="tag"><option value="">All</option>${options(tags.map((t) => [t, t]))}</select></div>` +
    `<div class="field"><label for="f-coverage">Coverage</label><select id="f-coverage" name="coverage"><option value="">All</option>${options(BUCKETS.map((b) => [b, BUCKET_LABELS[b]]))}</select></div>` +
    `</form>`
  );
}

const COLUMNS = [
  ["id", "ID", ""],
  ["short", "Title", ""],
  ["category", "Category", ""],
  ["tags", "Tags", ""],
  ["coverage", "Coverage", ""],
  ["tests", "Tests", "num"],
  ["code", "Code", "num"],
] as const;

/**
 * Up to SMALL requirements the table shows every match; past it, the first ROWS_SHOWN (a
 * "show more" button adds more): Chromium's style and layout cost grows with the rows shown,
 * and 50 keep a keystroke within its budget on 10,000 requirements (npm run bench -- report).
 * The rows shown first are written into the HTML, for a browser without script and for print;
 * the script builds the others from the JSON when a search needs them.
 */
export const SMALL = 200;
export const ROWS_SHOWN = 50;

const rowsShown = (data: ReportData) => (data.requirements.length <= SMALL ? data.requirements.length : ROWS_SHOWN);

function requirementsTable(data: ReportData, several: boolean): string {
  const columns = several ? [COLUMNS[0], ["project", "Project", ""] as const, ...COLUMNS.slice(1)] : COLUMNS;
  const head = columns
    .map(
      ([key, label, cls]) =>
        `<th scope="col" data-sort="${key}"${cls ? ` class="${cls}"` : ""}${key === "id" ? ' aria-sort="ascending"' : ""}>${label}</th>`,
    )
    .join("");
  const rows = data.requirements.slice(0, rowsShown(data)).map((r) => {
    const tests = (data.model.testedBy.get(r.id) ?? []).length;
    const code = (data.model.codeReferencesById.get(r.id) ?? []).length;
    const tags = r.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ");
    const project = several ? `<td>${esc(r.project ?? "")}</td>` : "";
    return (
      `<tr><td><a class="id" href="${requirementHref(data, r.id, "")}">${esc(r.id)}</a></td>${project}<td>${esc(cut(r.short ?? "", TITLE_CHARS))}</td>` +
      `<td>${esc(r.category)}</td><td>${tags}</td><td>${bucketBadge(data.bucketOf.get(r.id)!)}</td><td class="num">${tests}</td><td class="num">${code}</td></tr>`
    );
  });
  return (
    `<div class="scroll" role="region" aria-label="Requirements table" tabindex="0"><table id="requirements-table" class="requirements" data-limit="${rowsShown(data)}">` +
    `<caption class="vh">Requirements</caption><colgroup><col class="c-id">${several ? '<col class="c-category">' : ""}<col class="c-title"><col class="c-category"><col class="c-tags"><col class="c-coverage"><col class="c-num"><col class="c-num"></colgroup>` +
    `<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody></table></div>`
  );
}

/**
 * Per requirement, in table order: [id, short, category, tags, bucket index, tests, code, text,
 * link] and, with several projects (`projects: true`), its project; one row at a time (the whole JSON of a large tree is never one string); titles and
 * texts cut at TITLE_CHARS and SEARCH_TEXT_CHARS: search reads that much of each.
 */
const shownText = (text: string) => escapeControl(text, true);

function* searchData(data: ReportData, several: boolean): Generator<string> {
  const head = jsonForScript({
    buckets: BUCKETS,
    labels: BUCKETS.map((b) => BUCKET_LABELS[b]),
    ...(several ? { projects: true } : {}),
    rows: [],
  });
  yield head.slice(0, -2);
  let first = true;
  for (const r of data.requirements) {
    // What the script shows, as esc() shows it in the rows written into the page.
    const row = jsonForScript([
      shownText(r.id),
      shownText(cut(r.short ?? "", TITLE_CHARS)),
      shownText(r.category),
      r.tags.map(shownText),
      BUCKETS.indexOf(data.bucketOf.get(r.id)!),
      (data.model.testedBy.get(r.id) ?? []).length,
      (data.model.codeReferencesById.get(r.id) ?? []).length,
      cut(r.client_statement ? `${r.long}\n${r.client_statement}` : r.long, SEARCH_TEXT_CHARS),
      requirementHref(data, r.id, ""),
      ...(several ? [shownText(r.project ?? "")] : []),
    ]);
    yield first ? row : `,${row}`;
    first = false;
  }
  yield "]}";
}

function shownNote(data: ReportData): string {
  if (data.requirements.length <= SMALL) return "";
  return `, the first ${ROWS_SHOWN} shown (search to find the others; the <a href="matrix.html">matrix</a> lists them all)`;
}

// speky:speky-ts#REPORT-INDEX
export function indexPage(data: ReportData): Iterable<string> {
  const m = data.model;
  const problems = problemCount(data);
  const projects = projectsOf(data);
  const several = projects.length > 1;
  const counts =
    `<ul class="counts">` +
    `<li><strong>${grouped(m.specs.requirements.length)}</strong> ${m.specs.requirements.length === 1 ? "requirement" : "requirements"}</li>` +
    `<li><a href="tests.html"><strong>${grouped(m.specs.tests.length)}</strong> ${m.specs.tests.length === 1 ? "test" : "tests"}</a></li>` +
    `<li><strong>${grouped(m.codeReferences.length)}</strong> code ${m.codeReferences.length === 1 ? "reference" : "references"}</li>` +
    `<li><a href="problems.html"><strong>${grouped(problems)}</strong> ${problems === 1 ? "problem" : "problems"}</a></li>` +
    `</ul>`;
  const body =
    `<h1>${esc(data.title)} <span class="sub">traceability report</span></h1>\n${generatedLine(data)}\n` +
    `<section aria-labelledby="summary"><h2 id="summary">Summary</h2>${counts}</section>\n` +
    `<section aria-labelledby="coverage"><h2 id="coverage">Coverage</h2>${coverageSection(data)}</section>\n` +
    verificationSection(data) +
    `<section aria-labelledby="requirements"><h2 id="requirements">Requirements</h2>\n${filters(data, projects)}\n` +
    `<p id="status" class="status" role="status" aria-live="polite">${plural(data.requirements.length, "requirement")}${shownNote(data)}</p>\n` +
    `${requirementsTable(data, several)}\n<p class="more"><button type="button" id="show-more" hidden>Show more</button></p>\n` +
    `<script type="application/json" id="report-data">`;
  const parts = (function* () {
    yield body;
    yield* searchData(data, several);
    yield "</script>\n</section>";
  })();
  return pageParts(
    {
      title: `${data.title} — traceability report`,
      root: "",
      section: "index",
      scripts: ["index.js"],
      problems,
      changes: data.changes !== undefined,
    },
    parts,
  );
}
