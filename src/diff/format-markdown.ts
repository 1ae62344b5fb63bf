// `speky diff --format markdown`: for a pull-request comment or a GitHub job summary. One
// summary line, then a section per part with its count; IDs link to the published report
// (--report-url) when given, code to its source_links URL when the manifest has one. IDs, paths
// and symbols are code spans, spec text and messages plain text (src/text/markdown-inline.ts: neither
// can format, link, mention, write HTML or start a line of its own); coverage buckets are said in
// words; a link target is only ever an http(s) URL.

import type { Summary } from "../model/answer-shapes.js";
import { COVERAGE_IN_WORDS } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import { plural } from "../quote.js";
import { codeSpan, plainText, safeHttpUrl } from "../text/markdown-inline.js";
import { placeItems } from "../text/page-places.js";
import { projectNamer, shortCommit } from "./format-text.js";
import { type Changes, type ImpactEntry, type ItemChanges, linkOf, type Problem, type RefShape } from "./shapes.js";

/** Past this many entries, a section says how many more there are instead. */
export const MAX_MARKDOWN_ENTRIES = 200;

/** Where an ID's page is in the published report, if one is given. */
export type ItemUrl = (id: string) => string | undefined;

/** The report's item pages under `base` (placed as `speky report` places them for this model). */
export function reportLinks(base: string | undefined, model: Model | null): ItemUrl {
  if (base === undefined || model === null) return () => undefined;
  const root = base.endsWith("/") ? base : `${base}/`;
  const requirements = placeItems(model.requirementIds);
  const tests = placeItems(model.testIds);
  return (id) => {
    const r = requirements.get(id);
    if (r) return `${root}requirements/${r.file}#${r.anchor}`;
    const t = tests.get(id);
    return t ? `${root}tests/${t.file}#${t.anchor}` : undefined;
  };
}

/** A link target: http(s) only, with what would end a Markdown link destination encoded. */
function target(url: string | undefined): string | null {
  const safe = safeHttpUrl(url);
  return safe === null ? null : safe.replace(/[()\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function link(text: string, url: string | undefined): string {
  const to = target(url);
  return to === null ? text : `[${text}](${to})`;
}

function limited<T>(list: readonly T[], line: (item: T) => string, out: string[]): void {
  for (const item of list.slice(0, MAX_MARKDOWN_ENTRIES)) out.push(line(item));
  if (list.length > MAX_MARKDOWN_ENTRIES) out.push(`- … and ${list.length - MAX_MARKDOWN_ENTRIES} more (see speky diff)`);
}

function summaryLine(c: Changes): string {
  const r = c.requirements!;
  const t = c.tests!;
  const refs = c.code_references!;
  const counts = [
    `manifests: ${c.manifests!.length} changed`,
    `requirements: ${r.added.length} added, ${r.removed.length} removed, ${r.changed.length} changed, ${r.renamed.length} renamed`,
    `tests: ${t.added.length} added, ${t.removed.length} removed, ${t.changed.length} changed, ${t.renamed.length} renamed`,
    `code references: ${refs.added.length} added, ${refs.removed.length} removed, ${refs.moved.length} moved`,
    `coverage: ${c.coverage!.length} changed`,
    `impact: ${plural(c.impact!.length, "definition")}`,
    `suspect: ${c.suspect!.length}`,
    `rerun: ${plural(c.rerun!.length, "test")}`,
  ];
  return `**Summary:** ${counts.join(" · ")}`;
}

// speky:speky-ts#DIFF-FORMATS
// speky:speky-ts#DIFF-MARKDOWN-CODE
export function markdownReport(c: Changes, itemUrl: ItemUrl): string {
  const project = projectNamer(c);
  const of = (name: string | null) => (project(name) === "" ? "" : ` in ${codeSpan(project(name))}`);
  const id = (value: string) => link(codeSpan(value), itemUrl(value));
  const place = (r: { file: string; line: number }, url: string | undefined) => link(codeSpan(`${r.file}:${r.line}`), url);
  const on = (r: RefShape) => (r.symbol === null ? "a free tag" : codeSpan(r.symbol));
  const ref = (r: RefShape) => `${id(r.id)}${of(r.project)} at ${place(r, linkOf(r))} on ${on(r)}${r.is_test ? " (test)" : ""}`;
  const head = c.head_commit === undefined ? plainText(c.head) : `${codeSpan(c.head)} (${shortCommit(c.head_commit)})`;
  const out = [`## Specification changes: ${codeSpan(c.base)} (${shortCommit(c.base_commit)}) → ${head}`, ""];
  for (const side of c.without_specification ?? []) out.push(`The ${side} side has no specification (no manifest): an empty model.`, "");
  for (const [side, problems] of Object.entries(c.warnings ?? {}) as [string, Problem[]][]) {
    out.push(`**Files of the ${side} side not compared** (${plural(problems.length, "file")}):`, "");
    limited(problems, (p) => `- ${codeSpan(p.file)}: ${plainText(p.message)}`, out);
    out.push("");
  }
  if (c.load_errors) {
    for (const [side, problems] of Object.entries(c.load_errors) as [string, Problem[]][]) {
      out.push(`**The ${side} side's specifications do not load** (${plural(problems.length, "error")}); nothing was compared.`, "");
      limited(problems, (p) => `- ${codeSpan(p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file)}: ${plainText(p.message)}`, out);
      out.push("");
    }
    return out.join("\n");
  }
  out.push(summaryLine(c), "");
  out.push(`### Manifests (${c.manifests!.length})`, "");
  if (c.manifests!.length === 0) out.push("None.");
  limited(c.manifests!, (m) => `- ${m.change} ${codeSpan(m.file)}${of(m.project)}: ${m.keys.map(codeSpan).join(", ")}`, out);
  out.push("");
  const items = (title: string, changes: ItemChanges) => {
    const total = changes.added.length + changes.removed.length + changes.changed.length + changes.renamed.length;
    out.push(`### ${title} (${total})`, "");
    if (total === 0) return void out.push("None.", "");
    const short = (s: Summary) => (s.short ? ` ${plainText(s.short)}` : "");
    limited(changes.added, (s) => `- added ${id(s.id)}${of(s.project)}${short(s)}`, out);
    limited(changes.removed, (s) => `- removed ${codeSpan(s.id)}${of(s.project)}${short(s)}`, out);
    limited(changes.changed, (ch) => `- changed ${id(ch.id)}${of(ch.project)}: ${ch.fields.join(", ")}`, out);
    limited(changes.renamed, (r) => `- renamed ${codeSpan(r.from)} → ${id(r.to)}${of(r.project)}`, out);
    out.push("");
  };
  items("Requirements", c.requirements!);
  items("Tests", c.tests!);
  const refs = c.code_references!;
  out.push(`### Code references (${refs.added.length + refs.removed.length + refs.moved.length})`, "");
  if (refs.added.length + refs.removed.length + refs.moved.length === 0) out.push("None.");
  limited(refs.added, (r) => `- added ${ref(r)}`, out);
  limited(refs.removed, (r) => `- removed ${ref(r)}`, out);
  limited(
    refs.moved,
    (m) =>
      `- moved ${id(m.id)}${of(m.project)} from ${place(m.from, linkOf(m.from))} on ${on(m.from)} to ${place(m.to, linkOf(m.to))} on ${on(m.to)}`,
    out,
  );
  out.push("", `### Coverage (${c.coverage!.length})`, "");
  if (c.coverage!.length === 0) out.push("None.");
  limited(c.coverage!, (e) => `- ${id(e.id)}${of(e.project)}: ${COVERAGE_IN_WORDS[e.from]} → ${COVERAGE_IN_WORDS[e.to]}`, out);
  out.push("", `### Impact (${c.impact!.length})`, "");
  if (c.impact!.length === 0) out.push("No tagged definition was touched.");
  const what = (e: ImpactEntry) => (e.symbol !== null ? codeSpan(e.symbol) : "the code around a free tag");
  const impact = (e: ImpactEntry) =>
    `- ${what(e)}${of(e.project)} at ${link(codeSpan(`${e.file}:${e.start_line}-${e.end_line}`), linkOf(e))}: ${e.ids.map(id).join(", ")}`;
  limited(c.impact!, impact, out);
  out.push("", `### Suspect (${c.suspect!.length})`, "");
  if (c.suspect!.length === 0) out.push("None: every requirement whose text changed had its tagged code touched too.");
  limited(
    c.suspect!,
    (s) =>
      s.code.length === 0
        ? `- ${id(s.id)}${of(s.project)}: its text changed; it has no tagged definition`
        : `- ${id(s.id)}${of(s.project)}: its text changed, its tagged code did not: ${s.code.map((r) => place(r, linkOf(r))).join(", ")}`,
    out,
  );
  out.push("", `### Tests to rerun (${c.rerun!.length})`, "");
  out.push(c.rerun!.length === 0 ? "None." : c.rerun!.slice(0, MAX_MARKDOWN_ENTRIES).map(id).join(", "));
  if (c.rerun!.length > MAX_MARKDOWN_ENTRIES) out.push("", `… and ${c.rerun!.length - MAX_MARKDOWN_ENTRIES} more (see speky diff)`);
  out.push("");
  return out.join("\n");
}
