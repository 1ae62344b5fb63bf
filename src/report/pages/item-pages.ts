// The view of each requirement and test: every field, refs both ways, tests with their
// steps, code at file:line. Views are <article>s, CHUNK per file (names.ts); a link's
// fragment selects one, and the stylesheet then shows that one alone (:target).
import type { Requirement, Test } from "../../loader/types.js";
import { esc } from "../../text/html-escape.js";
import { firstOf, LIST_ITEMS, STEPS_CHARS } from "../bounds.js";
import { problemCount, type ReportData } from "../data.js";
import { requirementStatusFact, testStatusBadge, testStatusFact } from "../verification.js";
import { stepsWeight } from "../weights.js";
import {
  automationBadge,
  bucketBadge,
  codeTable,
  comments,
  idList,
  itemLink,
  moreItems,
  section,
  shortTitle,
  steps,
  testHref,
  text,
} from "./fragments.js";
import { pageParts } from "./layout.js";

const ROOT = "../";

const fact = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`;

function heading(anchor: string, id: string, short: string | undefined, kind: string): string {
  const title = short ? ` <span class="short">${esc(short)}</span>` : "";
  return `<p class="kind">${kind}</p><h2 id="${anchor}:title"><span class="id">${esc(id)}</span>${title}</h2>`;
}

const definedIn = (item: Requirement | Test) => `<code>${esc(`${item.loc.file}:${item.loc.line}`)}</code>`;

function properties(req: Requirement): string | null {
  const entries = Object.entries(req.properties ?? {});
  if (entries.length === 0) return null;
  const rows = entries.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join("");
  return `<table class="properties"><thead><tr><th scope="col">Property</th><th scope="col">Value</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function testsOfRequirement(data: ReportData, req: Requirement, anchor: string): string {
  const all = data.model.testedBy.get(req.id) ?? [];
  if (all.length === 0) return `<p class="none">No test refers to this requirement.</p>`;
  const { shown: tests, more } = firstOf(all, LIST_ITEMS);
  // Steps while they stay under STEPS_CHARS; the tests after are links to their own views.
  let budget = STEPS_CHARS;
  return (
    tests
      .map((t, i) => {
        budget -= stepsWeight(t);
        const details =
          budget < 0
            ? ""
            : (t.initial ? `<p><span class="label">Initial state</span> <span class="text">${esc(t.initial)}</span></p>` : "") +
              steps(t.steps);
        return (
          `<div class="test" role="group" aria-labelledby="${anchor}:test-${i}"><h4 id="${anchor}:test-${i}"><a class="id" href="${testHref(data, t.id, ROOT)}">${esc(t.id)}</a>${shortTitle(t.short)} ` +
          `${automationBadge(data.automated.get(t.id) ?? false)}${testStatusBadge(data, t.id)}</h4>${details}</div>`
        );
      })
      .join("\n") + moreItems(more)
  );
}

function requirementArticle(data: ReportData, req: Requirement, here: string): string {
  const model = data.model;
  const a = data.requirementPlace.get(req.id)!.anchor;
  const code = model.codeReferencesById.get(req.id) ?? [];
  const tests = model.testedBy.get(req.id) ?? [];
  const tags = req.tags.length ? req.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(" ") : `<span class="none">none</span>`;
  const facts =
    fact("Category", esc(req.category)) +
    fact("Coverage", bucketBadge(data.bucketOf.get(req.id)!)) +
    requirementStatusFact(data, req.id) +
    fact("Tags", tags) +
    (req.project !== null ? fact("Project", esc(req.project)) : "") +
    fact("Defined in", definedIn(req));
  return (
    `<article class="item" id="${a}" aria-labelledby="${a}:title">\n${heading(a, req.id, req.short, "Requirement")}\n<dl class="facts">${facts}</dl>\n` +
    section(`${a}:description`, "Description", text(req.long), 3) +
    section(`${a}:client`, "Client statement", req.client_statement ? text(req.client_statement, "blockquote") : null, 3) +
    section(`${a}:properties`, "Properties", properties(req), 3) +
    section(`${a}:refers-to`, "Refers to", idList(data, req.ref, ROOT, here), 3) +
    section(
      `${a}:referenced-by`,
      "Referenced by",
      idList(
        data,
        (model.referencedBy.get(req.id) ?? []).map((r) => r.id),
        ROOT,
        here,
      ),
      3,
    ) +
    section(`${a}:tests`, `Tests (${tests.length})`, testsOfRequirement(data, req, a), 3) +
    section(`${a}:code`, `Code (${code.length})`, codeTable(code, `Code tagged ${req.id}`), 3) +
    section(`${a}:comments`, "Comments", comments(model.commentsAbout.get(req.id) ?? []), 3) +
    `</article>`
  );
}

function testArticle(data: ReportData, test: Test, here: string): string {
  const model = data.model;
  const a = data.testPlace.get(test.id)!.anchor;
  const code = model.codeReferencesById.get(test.id) ?? [];
  const facts =
    fact("Category", esc(test.category)) +
    fact("Automated", automationBadge(data.automated.get(test.id) ?? false)) +
    testStatusFact(data, test.id) +
    (test.project !== null ? fact("Project", esc(test.project)) : "") +
    fact("Defined in", definedIn(test));
  const refs = firstOf([...new Set(test.ref)], LIST_ITEMS);
  const validates = test.ref.length
    ? `<ul class="ids">${refs.shown
        .map((id) => {
          const bucket = data.bucketOf.get(id);
          return `<li>${itemLink(data, id, ROOT, here)}${shortTitle(model.byId.get(id)?.short)}${bucket ? ` ${bucketBadge(bucket)}` : ""}</li>`;
        })
        .join("")}</ul>${moreItems(refs.more)}`
    : null;
  return (
    `<article class="item" id="${a}" aria-labelledby="${a}:title">\n${heading(a, test.id, test.short, "Test")}\n<dl class="facts">${facts}</dl>\n` +
    section(`${a}:description`, "Description", text(test.long), 3) +
    section(`${a}:validates`, "Validates", validates, 3) +
    section(`${a}:initial`, "Initial state", test.initial ? text(test.initial) : null, 3) +
    section(`${a}:prerequisites`, "Prerequisites", idList(data, test.prereq, ROOT, here), 3) +
    section(`${a}:steps`, `Steps (${test.steps.length})`, steps(test.steps), 3) +
    section(`${a}:code`, `Code (${code.length})`, codeTable(code, `Code tagged ${test.id}`), 3) +
    section(`${a}:comments`, "Comments", comments(model.commentsAbout.get(test.id) ?? []), 3) +
    `</article>`
  );
}

function* chunkBody(kind: "Requirements" | "Tests", ids: string[], articles: Iterable<string>): Generator<string> {
  const range = ids.length === 1 ? esc(ids[0]) : `${esc(ids[0])} to ${esc(ids.at(-1)!)}`;
  yield `<h1 class="chunk-title">${kind} <span class="sub">${range}</span></h1>\n` +
    `<p class="chunk-note">This page holds ${ids.length} ${kind.toLowerCase()}; a link to one of them shows it alone. <a href="${ROOT}${kind === "Requirements" ? "index" : "tests"}.html">All ${kind.toLowerCase()}</a></p>\n` +
    `<div class="items">\n`;
  let first = true;
  for (const article of articles) {
    yield first ? article : `\n${article}`;
    first = false;
  }
  yield "\n</div>";
}

/** One page of item views, written one view at a time (a page is never one string). */
function chunkPage(data: ReportData, kind: "Requirements" | "Tests", ids: string[], articles: Iterable<string>): Iterable<string> {
  const body = chunkBody(kind, ids, articles);
  return pageParts(
    {
      title: `${kind} ${ids.length === 1 ? ids[0] : `${ids[0]} to ${ids.at(-1)}`} — ${data.title}`,
      root: ROOT,
      section: kind === "Requirements" ? "index" : "tests",
      current: false,
      scripts: ["item.js"],
      problems: problemCount(data),
      changes: data.changes !== undefined,
    },
    body,
  );
}

/** Each file of requirements/ with its content, in order. */
// speky:speky-ts#REPORT-ITEM-PAGES
export function* requirementFiles(data: ReportData): Generator<[string, Iterable<string>]> {
  yield* chunks(
    data.requirements,
    (r) => data.requirementPlace.get(r.id)!.file,
    (file, items) =>
      chunkPage(
        data,
        "Requirements",
        items.map((r) => r.id),
        lazily(items, (r) => requirementArticle(data, r, `requirements/${file}`)),
      ),
  );
}

export function* testFiles(data: ReportData): Generator<[string, Iterable<string>]> {
  yield* chunks(
    data.tests,
    (t) => data.testPlace.get(t.id)!.file,
    (file, items) =>
      chunkPage(
        data,
        "Tests",
        items.map((t) => t.id),
        lazily(items, (t) => testArticle(data, t, `tests/${file}`)),
      ),
  );
}

/** Each item rendered as the page is written, not all of a page at once. */
function* lazily<T>(items: readonly T[], render: (item: T) => string): Generator<string> {
  for (const item of items) yield render(item);
}

function* chunks<T>(
  items: readonly T[],
  fileOf: (item: T) => string,
  render: (file: string, items: T[]) => Iterable<string>,
): Generator<[string, Iterable<string>]> {
  let group: T[] = [];
  let file = "";
  for (const item of items) {
    const f = fileOf(item);
    if (f !== file && group.length > 0) {
      yield [file, render(file, group)];
      group = [];
    }
    file = f;
    group.push(item);
  }
  if (group.length > 0) yield [file, render(file, group)];
}
