// `speky diff --format markdown`: for a pull-request comment or a GitHub job summary. One
// summary line, then a section per part with its count; IDs link to the published report
// (--report-url) when given, code to its source_links URL when the manifest has one. Repository
// text is escaped as the report's Markdown escapes it (no formatting, link, mention, HTML or
// line of its own), and a link target is only ever an http(s) URL.
import type { Summary } from "../model/answer-shapes.js";
import type { Model } from "../model/model.js";
import { plural } from "../quote.js";
import { safeHttpUrl } from "../text/html-escape.js";
import { mdText as reportText } from "../text/markdown-text.js";
import { placeItems } from "../text/page-places.js";
import { plain, shortCommit } from "./format-text.js";
import { type Changes, type ImpactEntry, linkOf, type Problem, type RefShape } from "./shapes.js";

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

/** Repository text as Markdown text: control characters escaped visibly first, then the report's escapes. */
const mdText = (text: string) => reportText(plain(text));
const code = (text: string) => mdText(text);

function limited<T>(list: readonly T[], line: (item: T) => string, out: string[]): void {
  for (const item of list.slice(0, MAX_MARKDOWN_ENTRIES)) out.push(line(item));
  if (list.length > MAX_MARKDOWN_ENTRIES) out.push(`- … and ${list.length - MAX_MARKDOWN_ENTRIES} more (see speky diff)`);
}

function summaryLine(c: Changes): string {
  const r = c.requirements!;
  const t = c.tests!;
  const refs = c.code_references!;
  const counts = [
    `requirements: ${r.added.length} added, ${r.removed.length} removed, ${r.changed.length} changed`,
    `tests: ${t.added.length} added, ${t.removed.length} removed, ${t.changed.length} changed`,
    `code references: ${refs.added.length} added, ${refs.removed.length} removed`,
    `coverage: ${c.coverage!.length} changed`,
    `impact: ${plural(c.impact!.length, "definition")}`,
    `suspect: ${c.suspect!.length}`,
    `rerun: ${plural(c.rerun!.length, "test")}`,
  ];
  return `**Summary:** ${counts.join(" · ")}`;
}

// speky:speky-ts#DIFF-FORMATS
export function markdownReport(c: Changes, itemUrl: ItemUrl): string {
  const id = (value: string) => link(mdText(value), itemUrl(value));
  const place = (r: { file: string; line: number }, url: string | undefined) => link(code(`${r.file}:${r.line}`), url);
  const ref = (r: RefShape) =>
    `${id(r.id)} at ${place(r, linkOf(r))}${r.symbol === null ? " (free tag)" : ` on ${code(r.symbol)}`}${r.is_test ? " (test)" : ""}`;
  const head = c.head_commit === undefined ? mdText(c.head) : `${mdText(c.head)} (${shortCommit(c.head_commit)})`;
  const out = [`## Specification changes: ${mdText(c.base)} (${shortCommit(c.base_commit)}) → ${head}`, ""];
  for (const [side, problems] of Object.entries(c.warnings ?? {}) as [string, Problem[]][]) {
    out.push(`**Files of the ${side} side not compared** (${plural(problems.length, "file")}):`, "");
    limited(problems, (p) => `- ${mdText(`${p.file}: ${p.message}`)}`, out);
    out.push("");
  }
  if (c.load_errors) {
    for (const [side, problems] of Object.entries(c.load_errors) as [string, Problem[]][]) {
      out.push(`**The ${side} side's specifications do not load** (${plural(problems.length, "error")}); nothing was compared.`, "");
      limited(problems, (p) => `- ${mdText(`${p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file}: ${p.message}`)}`, out);
      out.push("");
    }
    return out.join("\n");
  }
  out.push(summaryLine(c), "");
  const items = (title: string, changes: NonNullable<Changes["requirements"]>) => {
    const total = changes.added.length + changes.removed.length + changes.changed.length;
    out.push(`### ${title} (${total})`, "");
    if (total === 0) return void out.push("None.", "");
    const short = (s: Summary) => (s.short ? ` ${mdText(s.short)}` : "");
    limited(changes.added, (s) => `- added ${id(s.id)}${short(s)}`, out);
    limited(changes.removed, (s) => `- removed ${mdText(s.id)}${short(s)}`, out);
    limited(changes.changed, (ch) => `- changed ${id(ch.id)}: ${ch.fields.join(", ")}`, out);
    out.push("");
  };
  items("Requirements", c.requirements!);
  items("Tests", c.tests!);
  const refs = c.code_references!;
  out.push(`### Code references (${refs.added.length + refs.removed.length})`, "");
  if (refs.added.length + refs.removed.length === 0) out.push("None.");
  limited(refs.added, (r) => `- added ${ref(r)}`, out);
  limited(refs.removed, (r) => `- removed ${ref(r)}`, out);
  out.push("", `### Coverage (${c.coverage!.length})`, "");
  if (c.coverage!.length === 0) out.push("None.");
  limited(c.coverage!, (e) => `- ${id(e.id)}: ${mdText(e.from)} → ${mdText(e.to)}`, out);
  out.push("", `### Impact (${c.impact!.length})`, "");
  if (c.impact!.length === 0) out.push("No tagged definition was touched.");
  const impact = (e: ImpactEntry) =>
    `- ${code(e.symbol)} at ${link(code(`${e.file}:${e.start_line}-${e.end_line}`), linkOf(e))}: ${e.ids.map(id).join(", ")}`;
  limited(c.impact!, impact, out);
  out.push("", `### Suspect (${c.suspect!.length})`, "");
  if (c.suspect!.length === 0) out.push("None: every requirement whose text changed had its tagged code touched too.");
  limited(
    c.suspect!,
    (s) =>
      s.code.length === 0
        ? `- ${id(s.id)}: its text changed; it has no tagged definition`
        : `- ${id(s.id)}: its text changed, its tagged code did not: ${s.code.map((r) => place(r, linkOf(r))).join(", ")}`,
    out,
  );
  out.push("", `### Tests to rerun (${c.rerun!.length})`, "");
  out.push(c.rerun!.length === 0 ? "None." : c.rerun!.slice(0, MAX_MARKDOWN_ENTRIES).map(id).join(", "));
  if (c.rerun!.length > MAX_MARKDOWN_ENTRIES) out.push("", `… and ${c.rerun!.length - MAX_MARKDOWN_ENTRIES} more (see speky diff)`);
  out.push("");
  return out.join("\n");
}
