// `speky diff --format text` (the default): for a terminal. Every string from the repository is
// escaped (control characters, bidi overrides, line breaks), so no input starts a line or steers
// the terminal. Coverage buckets are said in words; projects are named when there are several.
import { escapeControl, lineSafeJson } from "../diagnostics.js";
import { COVERAGE_IN_WORDS } from "../model/coverage.js";
import { plural } from "../quote.js";
import type { Changes, ImpactEntry, ItemChanges, Problem, RefShape } from "./shapes.js";

/** Repository text made safe for one line of a terminal: control, line-breaking and bidi characters shown as escapes. */
const plain = (text: string) => escapeControl(text);

/** Every project an entry of the document names. */
function projectsOf(c: Changes): Set<string> {
  const names = new Set<string>();
  const add = (p: string | null) => void (p !== null && names.add(p));
  for (const m of c.manifests ?? []) add(m.project);
  for (const items of [c.requirements, c.tests]) {
    for (const list of [items?.added, items?.removed, items?.changed, items?.renamed]) for (const e of list ?? []) add(e.project);
  }
  for (const list of [c.code_references?.added, c.code_references?.removed, c.code_references?.moved])
    for (const e of list ?? []) add(e.project);
  for (const list of [c.coverage, c.impact, c.suspect]) for (const e of list ?? []) add(e.project);
  return names;
}

/** Whether the document's entries name more than one project (then each is shown with its project). */
export const severalProjects = (c: Changes): boolean => projectsOf(c).size > 1;

/** A project's name as the text and Markdown show it: "" when the document names one project or none. */
export function projectNamer(c: Changes): (project: string | null) => string {
  const several = severalProjects(c);
  return (project) => (several && project !== null ? project : "");
}

export const shortCommit = (commit: string) => commit.slice(0, 12);

export function sidesLine(c: Changes): string {
  const head = c.head_commit === undefined ? plain(c.head) : `${plain(c.head)} (${shortCommit(c.head_commit)})`;
  return `${plain(c.base)} (${shortCommit(c.base_commit)}) → ${head}`;
}

const where = (r: { file: string; line: number }) => `${r.file}:${r.line}`;

const inProject = (name: string) => (name === "" ? "" : `  [${name}]`);

export function refText(r: RefShape, project = ""): string {
  const symbol = r.symbol === null ? "(free tag)" : r.symbol;
  return plain(`${r.id}  ${where(r)}  ${symbol}${r.is_test ? "  (test)" : ""}${inProject(project)}`);
}

export function impactText(e: ImpactEntry, project = ""): string {
  const symbol = e.symbol ?? "(around a free tag)";
  return plain(`${e.file}:${e.start_line}-${e.end_line}  ${symbol}  ${e.ids.join(", ")}${inProject(project)}`);
}

export function problemText(p: Problem): string {
  return plain(`${p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file}: ${p.severity}: ${p.message}`);
}

function items(title: string, changes: ItemChanges, project: (p: string | null) => string, out: string[]): void {
  const { added, removed, changed, renamed } = changes;
  out.push(`${title}: ${added.length} added, ${removed.length} removed, ${changed.length} changed, ${renamed.length} renamed`);
  const of = (p: string | null) => plain(inProject(project(p)));
  for (const s of added) out.push(`  + ${plain(s.id)}${s.short ? `  ${plain(s.short)}` : ""}${of(s.project)}`);
  for (const s of removed) out.push(`  - ${plain(s.id)}${s.short ? `  ${plain(s.short)}` : ""}${of(s.project)}`);
  for (const c of changed) out.push(`  ~ ${plain(c.id)}  ${c.fields.join(", ")}${of(c.project)}`);
  for (const r of renamed) out.push(`  > ${plain(r.from)} → ${plain(r.to)}${of(r.project)}`);
}

// speky:speky-ts#DIFF-FORMATS
export function textReport(c: Changes): string {
  const out = [sidesLine(c)];
  for (const [side, problems] of Object.entries(c.warnings ?? {}) as [string, Problem[]][]) {
    out.push(`the ${side} side's files not compared (${plural(problems.length, "file")}):`);
    for (const p of problems) out.push(`  ${problemText(p)}`);
  }
  for (const side of c.without_specification ?? []) out.push(`the ${side} side has no specification (no manifest): an empty model`);
  if (c.load_errors) {
    for (const [side, problems] of Object.entries(c.load_errors) as [string, Problem[]][]) {
      out.push(`the ${side} side's specifications do not load (${plural(problems.length, "error")}):`);
      for (const p of problems) out.push(`  ${problemText(p)}`);
    }
    out.push("nothing compared");
    return `${out.join("\n")}\n`;
  }
  const project = projectNamer(c);
  const of = (p: string | null) => plain(inProject(project(p)));
  out.push(`manifests: ${c.manifests!.length} changed`);
  for (const m of c.manifests!)
    out.push(
      `  ${m.change === "added" ? "+" : m.change === "removed" ? "-" : "~"} ${plain(m.file)}  ${plain(m.keys.join(", "))}${of(m.project)}`,
    );
  items("requirements", c.requirements!, project, out);
  items("tests", c.tests!, project, out);
  const refs = c.code_references!;
  out.push(`code references: ${refs.added.length} added, ${refs.removed.length} removed, ${refs.moved.length} moved`);
  for (const r of refs.added) out.push(`  + ${refText(r, project(r.project))}`);
  for (const r of refs.removed) out.push(`  - ${refText(r, project(r.project))}`);
  for (const m of refs.moved)
    out.push(`  > ${refText(m.from)}  →  ${plain(`${where(m.to)}  ${m.to.symbol ?? "(free tag)"}`)}${of(m.project)}`);
  out.push(`coverage: ${c.coverage!.length} changed`);
  for (const e of c.coverage!) out.push(`  ${plain(e.id)}  ${COVERAGE_IN_WORDS[e.from]} → ${COVERAGE_IN_WORDS[e.to]}${of(e.project)}`);
  out.push(`impact: ${plural(c.impact!.length, "definition")}`);
  for (const e of c.impact!) out.push(`  ${impactText(e, project(e.project))}`);
  out.push(`suspect: ${c.suspect!.length}`);
  for (const s of c.suspect!) {
    const code = s.code.length === 0 ? "it has no tagged definition" : `${plural(s.code.length, "tagged definition")}, untouched:`;
    out.push(`  ${plain(s.id)}  text changed; ${code}${of(s.project)}`);
    for (const r of s.code) out.push(`    ${refText(r)}`);
  }
  out.push(`rerun: ${c.rerun!.length === 0 ? "none" : plain(c.rerun!.join(", "))}`);
  return `${out.join("\n")}\n`;
}

/** `--format json`: the contract's document, line-safe. */
export function jsonReport(c: Changes): string {
  return `${lineSafeJson(JSON.stringify(c, null, 2))}\n`;
}
