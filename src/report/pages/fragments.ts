// Pieces several pages share: links to items, coverage badges, steps, code references,
// comments, problem tables. Every repository string passes through esc().
import type { Diagnostic } from "../../diagnostics.js";
import type { Comment, Step } from "../../loader/types.js";
import type { CoverageBucket } from "../../model/coverage.js";
import { grouped } from "../../quote.js";
import type { CodeReference } from "../../scan/types.js";
import { esc, safeHttpUrl } from "../../text/html-escape.js";
import type { Place } from "../../text/page-places.js";
import { cut, firstOf, LIST_ITEMS, PROBLEM_ROWS, TITLE_CHARS } from "../bounds.js";
import { BUCKET_LABELS, type ReportData } from "../data.js";

export { plural } from "../../quote.js";

/** Link to an item's view; `here` is the file being written, for links within it. */
function href(place: Place | undefined, folder: string, root: string, here?: string): string | null {
  if (place === undefined) return null;
  return here === `${folder}/${place.file}` ? `#${place.anchor}` : `${root}${folder}/${place.file}#${place.anchor}`;
}

export function requirementHref(data: ReportData, id: string, root: string, here?: string): string | null {
  return href(data.requirementPlace.get(id), "requirements", root, here);
}

export function testHref(data: ReportData, id: string, root: string, here?: string): string | null {
  return href(data.testPlace.get(id), "tests", root, here);
}

/** A link whose text is the ID, to the item's page (requirement or test). */
export function itemLink(data: ReportData, id: string, root: string, here?: string): string {
  const target = requirementHref(data, id, root, here) ?? testHref(data, id, root, here);
  return target === null ? `<span class="id">${esc(id)}</span>` : `<a class="id" href="${target}">${esc(id)}</a>`;
}

export function bucketBadge(bucket: CoverageBucket): string {
  return `<span class="badge ${bucket}">${BUCKET_LABELS[bucket]}</span>`;
}

export function automationBadge(automated: boolean): string {
  return automated ? `<span class="badge automated_test_plan">Automated</span>` : `<span class="badge manual_test_plan">Manual</span>`;
}

/** Multi-line text as written: the stylesheet keeps its line breaks. */
export const text = (value: string, tag = "p") => `<${tag} class="text">${esc(value)}</${tag}>`;

/** Another item's title, as a list shows it: cut at TITLE_CHARS (its own view has it whole). */
export const shortTitle = (short: string | undefined) => (short ? ` <span class="short">${esc(cut(short, TITLE_CHARS))}</span>` : "");

/** "and 1,234 more" after a list cut at its bound, or nothing. */
export const moreItems = (more: number, tag = "p") => (more > 0 ? `<${tag} class="more-items">and ${grouped(more)} more</${tag}>` : "");

/** A list of linked IDs with their short titles, or null when empty (the section is left out). */
export function idList(data: ReportData, ids: readonly string[], root: string, here?: string): string | null {
  if (ids.length === 0) return null;
  const { shown, more } = firstOf([...new Set(ids)], LIST_ITEMS);
  const items = shown.map((id) => `<li>${itemLink(data, id, root, here)}${shortTitle(data.model.byId.get(id)?.short)}</li>`);
  return `<ul class="ids">${items.join("")}</ul>${moreItems(more)}`;
}

export function steps(list: readonly Step[]): string {
  if (list.length === 0) return `<p class="none">No steps.</p>`;
  const items = list.map((s) => {
    const parts = [`<p class="action text">${esc(s.action)}</p>`];
    if (s.run) parts.push(`<p class="run"><span class="label">Run</span> <code>${esc(s.run)}</code></p>`);
    if (s.expected) parts.push(`<p class="expected"><span class="label">Expected</span> <span class="text">${esc(s.expected)}</span></p>`);
    if (s.sample) {
      const lang = s.sample_lang ? ` <span class="lang">(${esc(s.sample_lang)})</span>` : "";
      parts.push(`<p class="label">Sample${lang}</p><pre><code>${esc(s.sample)}</code></pre>`);
    }
    return `<li>${parts.join("")}</li>`;
  });
  return `<ol class="steps">${items.join("")}</ol>`;
}

/** `file:line`, linked to the configured source_links URL when it is a web address. */
export function location(ref: CodeReference): string {
  const where = esc(`${ref.file}:${ref.line}`);
  const url = safeHttpUrl(ref.url);
  return url === null ? `<code>${where}</code>` : `<a href="${esc(url)}" rel="noreferrer"><code>${where}</code></a>`;
}

export function codeTable(all: readonly CodeReference[], caption: string): string {
  if (all.length === 0) return `<p class="none">No code is tagged with this ID.</p>`;
  const { shown: refs, more } = firstOf(all, LIST_ITEMS);
  const rows = refs.map(
    (r) =>
      `<tr><td>${location(r)}</td><td>${r.symbol === null ? `<span class="none">(free tag)</span>` : `<code>${esc(r.symbol)}</code>`}</td>` +
      `<td>${esc(r.kind ?? "")}</td><td>${r.is_test ? "yes" : "no"}</td></tr>`,
  );
  return (
    `<div class="scroll" role="region" aria-label="${esc(caption)}" tabindex="0"><table class="code">` +
    `<caption>${esc(caption)}</caption>` +
    `<thead><tr><th scope="col">Location</th><th scope="col">Symbol</th><th scope="col">Kind</th><th scope="col">Automated test</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>${moreItems(more)}`
  );
}

export function comments(all: readonly Comment[]): string | null {
  if (all.length === 0) return null;
  const { shown: list, more } = firstOf(all, LIST_ITEMS);
  const items = list.map(
    (c) =>
      `<li><p class="meta"><span class="from">${esc(c.from)}</span>, <time>${esc(c.date)}</time>` +
      `${c.external ? ` <span class="badge external">external</span>` : ""}</p>${text(c.text)}</li>`,
  );
  return `<ul class="comments">${items.join("")}</ul>${moreItems(more)}`;
}

export function section(id: string, title: string, body: string | null, level = 2): string {
  if (body === null) return "";
  return `<section aria-labelledby="${id}"><h${level} id="${id}">${title}</h${level}>\n${body}\n</section>\n`;
}

export function diagnosticsTable(all: readonly Diagnostic[], caption: string, empty: string): string {
  if (all.length === 0) return `<p class="none">${esc(empty)}</p>`;
  const { shown: list, more } = firstOf(all, PROBLEM_ROWS);
  const rows = list.map((d) => {
    const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
    return `<tr class="${d.severity}"><td>${d.severity}</td><td><code>${esc(where)}</code></td><td class="text">${esc(d.message)}</td></tr>`;
  });
  return (
    `<div class="scroll" role="region" aria-label="${esc(caption)}" tabindex="0"><table class="problems">` +
    `<caption>${esc(caption)}</caption>` +
    `<thead><tr><th scope="col">Severity</th><th scope="col">Location</th><th scope="col">Message</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>${more > 0 ? `<p class="more-items">and ${grouped(more)} more (speky check lists them all)</p>` : ""}`
  );
}
