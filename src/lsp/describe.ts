// What hover shows of an ID, and the counts of a code lens: read from the model, with the
// open buffers' tags counted in.

import type { Item } from "../loader/types.js";
import { COVERAGE_IN_WORDS, coverageOf, isAutomated } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import { suggestId } from "../text/suggest.js";
import type { Project } from "./project.js";

/** Hover text is bounded: a spec's long text can be anything. */
const MAX_TEXT = 4000;

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
// speky:speky-ts#LSP-HOVER-TEXT
/**
 * Spec text as Markdown text, never markup: the characters of links, images, HTML, entities,
 * code and emphasis are escaped, so that a hostile spec cannot make a hover fetch an image,
 * show a link or render HTML; and so are the characters that autolinkers look for (GFM's
 * and VS Code's `https://`, `www.` and `a@b.c`; markdown-it's fuzzy `example.com`): the `:`
 * before a `/`, every `@`, and a `.` between two letters or digits. Clients then show a
 * bare URL as the text it is, never as a link.
 */
const MARKUP = /[\\`*_[\]()<>!#|~{}&@]|:(?=\/)|(?<=[\p{L}\p{N}])\.(?=[\p{L}\p{N}])/gu;
export const md = (text: string) => text.replace(MARKUP, "\\$&");
const code = (text: string) => `*${md(text)}*`;

export function testCounts(model: Model, id: string): { tests: number; automated: number } {
  const tests = model.testedBy.get(id) ?? [];
  return { tests: tests.length, automated: tests.filter((t) => isAutomated(model, t.id)).length };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// speky:speky-ts#LSP-LENS
/** "n tests (m automated) · k code references" */
export function lensTitle(project: Project, model: Model, id: string): string {
  const { tests, automated } = testCounts(model, id);
  return `${plural(tests, "test")} (${automated} automated) · ${plural(project.tagsOf(id).length, "code reference")}`;
}

// speky:speky-ts#LSP-HOVER
/** Markdown for an item: title, text, category, tags, tests or steps, code references. */
export function describeItem(project: Project, model: Model, item: Item): string {
  const lines: string[] = [];
  lines.push(`**${md(item.id)}**${item.short ? ` — ${md(item.short)}` : ""}`, "");
  lines.push(`*${item.kind}* · category ${code(item.category)}`, "");
  if (item.long) lines.push(md(clip(item.long.trimEnd())), "");
  if (item.kind === "requirement") {
    if (item.tags.length > 0) lines.push(`Tags: ${item.tags.map(md).join(", ")}`, "");
    const tests = model.testedBy.get(item.id) ?? [];
    const { automated } = testCounts(model, item.id);
    const list = tests.slice(0, 20).map((t) => `${md(t.id)} (${isAutomated(model, t.id) ? "automated" : "manual"})`);
    const more = tests.length > 20 ? `, and ${tests.length - 20} more` : "";
    lines.push(`Tests: ${plural(tests.length, "test")} (${automated} automated)${list.length ? `: ${list.join(", ")}${more}` : ""}`, "");
    lines.push(`Coverage: ${COVERAGE_IN_WORDS[coverageOf(model, item.id)]}`, "");
  } else {
    const validates = item.ref.slice(0, 20).map(md).join(", ") + (item.ref.length > 20 ? `, and ${item.ref.length - 20} more` : "");
    lines.push(`Steps: ${item.steps.length} · validates ${validates}`, "");
  }
  const scan = project.scanProgress;
  if (!scan) {
    lines.push(`Code references: ${project.tagsOf(item.id).length}`);
  } else {
    // Answered before the first scan was done (the wait is bounded): say what is not known yet.
    lines.push(`Code references: ${project.tagsOf(item.id).length} so far`, "");
    lines.push(`*${md(`${scan.describe()}: code references and automated tests are not all known yet`)}*`);
  }
  return lines.join("\n");
}

/** Markdown for an ID no loaded item defines. */
export function describeUnknown(model: Model, id: string): string {
  const suggestion = suggestId(id, model.byId.keys());
  return `**${md(id)}**: unknown ID${suggestion ? `; did you mean **${md(suggestion)}**?` : ""}`;
}
