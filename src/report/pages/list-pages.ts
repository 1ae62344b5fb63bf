// The list of tests, the traceability matrix and the problems.

import { esc } from "../../text/html-escape.js";
import { CELL_ITEMS, cut, firstOf, TITLE_CHARS } from "../bounds.js";
import { problemCount, type ReportData } from "../data.js";
import { automationBadge, diagnosticsTable, itemLink, moreItems, plural, section, testHref } from "./fragments.js";
import { page, pageParts } from "./layout.js";

/** Above this many cells the matrix is a list per requirement: a grid would be unreadable. */
export const GRID_LIMITS = { tests: 60, cells: 60_000 };

/** Rows one by one, each on its own line, between `head` and `tail`. */
function* rowsBetween<T>(head: string, items: readonly T[], row: (item: T) => string, tail: string): Generator<string> {
  yield `${head}\n`;
  for (const item of items) yield `${row(item)}\n`;
  yield tail;
}

export function testsPage(data: ReportData): Iterable<string> {
  const row = (t: (typeof data.tests)[number]) => {
    const { shown, more } = firstOf([...new Set(t.ref)], CELL_ITEMS);
    const refs = shown.map((id) => itemLink(data, id, "")).join(" ") + moreItems(more, "span");
    return (
      `<tr><td><a class="id" href="${testHref(data, t.id, "")}">${esc(t.id)}</a></td><td>${esc(cut(t.short ?? "", TITLE_CHARS))}</td><td>${esc(t.category)}</td>` +
      `<td>${refs}</td><td>${automationBadge(data.automated.get(t.id) ?? false)}</td></tr>`
    );
  };
  const head =
    `<h1>Tests <span class="sub">${esc(data.title)}</span></h1>\n<p class="status">${plural(data.tests.length, "test")}</p>\n` +
    `<div class="scroll" role="region" aria-label="Tests table" tabindex="0"><table class="tests"><caption class="vh">Tests</caption>` +
    `<thead><tr><th scope="col">ID</th><th scope="col">Title</th><th scope="col">Category</th><th scope="col">Validates</th><th scope="col">Automated</th></tr></thead>` +
    `<tbody>`;
  const body = rowsBetween(head, data.tests, row, "</tbody></table></div>");
  return pageParts(
    { title: `Tests — ${data.title}`, root: "", section: "tests", problems: problemCount(data), changes: data.changes !== undefined },
    body,
  );
}

const MARK = {
  automated: `<span class="mark automated" aria-hidden="true">●</span><span class="vh">automated</span>`,
  manual: `<span class="mark manual" aria-hidden="true">○</span><span class="vh">manual</span>`,
};

function grid(data: ReportData): Iterable<string> {
  const head = data.tests
    .map((t) => `<th scope="col" class="test-col"><a class="id" href="${testHref(data, t.id, "")}">${esc(t.id)}</a></th>`)
    .join("");
  const row = (r: (typeof data.requirements)[number]) => {
    const tests = new Set((data.model.testedBy.get(r.id) ?? []).map((t) => t.id));
    const cells = data.tests
      .map((t) => `<td class="mark-cell">${tests.has(t.id) ? MARK[data.automated.get(t.id) ? "automated" : "manual"] : ""}</td>`)
      .join("");
    return `<tr><th scope="row">${itemLink(data, r.id, "")}</th>${cells}</tr>`;
  };
  return rowsBetween(
    `<div class="scroll" role="region" aria-label="Traceability matrix" tabindex="0"><table class="matrix grid"><caption>Requirements (rows) × tests (columns)</caption>` +
      `<thead><tr><th scope="col">Requirement</th>${head}</tr></thead><tbody>`,
    data.requirements,
    row,
    "</tbody></table></div>",
  );
}

function list(data: ReportData): Iterable<string> {
  const row = (r: (typeof data.requirements)[number]) => {
    const { shown, more } = firstOf(data.model.testedBy.get(r.id) ?? [], CELL_ITEMS);
    const tests = shown
      .map((t) => `<li>${itemLink(data, t.id, "")} ${MARK[data.automated.get(t.id) ? "automated" : "manual"]}</li>`)
      .join("");
    return `<tr><th scope="row">${itemLink(data, r.id, "")}</th><td>${tests ? `<ul class="inline">${tests}</ul>${moreItems(more, "span")}` : `<span class="none">none</span>`}</td></tr>`;
  };
  return rowsBetween(
    `<div class="scroll" role="region" aria-label="Traceability matrix" tabindex="0"><table class="matrix list"><caption>Requirements and the tests that validate them</caption>` +
      `<thead><tr><th scope="col">Requirement</th><th scope="col">Tests</th></tr></thead><tbody>`,
    data.requirements,
    row,
    "</tbody></table></div>",
  );
}

// speky:speky-ts#REPORT-MATRIX
export function matrixPage(data: ReportData): Iterable<string> {
  const asGrid = data.tests.length <= GRID_LIMITS.tests && data.tests.length * data.requirements.length <= GRID_LIMITS.cells;
  const legend = `<p class="legend-line"><span class="mark automated" aria-hidden="true">●</span> automated test, <span class="mark manual" aria-hidden="true">○</span> manual test</p>`;
  const note = asGrid
    ? ""
    : `<p>With ${plural(data.tests.length, "test")}, the matrix lists each requirement's tests instead of a grid.</p>`;
  const body = (function* () {
    yield `<h1>Traceability matrix <span class="sub">${esc(data.title)}</span></h1>\n${legend}${note}\n`;
    yield* asGrid ? grid(data) : list(data);
  })();
  return pageParts(
    { title: `Matrix — ${data.title}`, root: "", section: "matrix", problems: problemCount(data), changes: data.changes !== undefined },
    body,
  );
}

// speky:speky-ts#REPORT-PROBLEMS
export function problemsPage(data: ReportData): string {
  const p = data.problems;
  const body =
    `<h1>Problems <span class="sub">${esc(data.title)}</span></h1>\n<p class="status">${plural(problemCount(data), "problem")}</p>\n` +
    section(
      "dangling",
      `Dangling tags (${p.dangling.length})`,
      diagnosticsTable(p.dangling, "Code tags naming an unknown ID", "Every code tag names a loaded ID."),
    ) +
    // speky:speky-ts#REPORT-FAILED-TESTS
    (data.model.verification
      ? section(
          "failed-tests",
          `Failed tests (${p.verification.length})`,
          diagnosticsTable(p.verification, "Failed tests and results files' problems", "Every tagged test that ran passed."),
        )
      : "") +
    section(
      "scanner",
      `Scanner warnings (${p.scanner.length})`,
      diagnosticsTable(p.scanner, "Scanner warnings", "The scanner reported nothing."),
    ) +
    section(
      "loader",
      `Loader warnings (${p.loader.length})`,
      diagnosticsTable(p.loader, "Loader warnings", "The specifications loaded without warnings."),
    );
  return page({
    title: `Problems — ${data.title}`,
    root: "",
    section: "problems",
    body,
    problems: problemCount(data),
    changes: data.changes !== undefined,
  });
}
