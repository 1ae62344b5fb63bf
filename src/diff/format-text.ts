// `speky diff --format text` (the default): for a terminal. Every string from the repository is
// escaped (control characters, bidi overrides), so no input starts a line or steers the terminal.
import { escapeControl, lineSafeJson } from "../diagnostics.js";
import { plural } from "../quote.js";
import type { Changes, ImpactEntry, ItemChanges, Problem, RefShape } from "./shapes.js";

const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** Repository text made safe for one line of a terminal. */
export function plain(text: string): string {
  return escapeControl(text).replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export const shortCommit = (commit: string) => commit.slice(0, 12);

export function sidesLine(c: Changes): string {
  const head = c.head_commit === undefined ? plain(c.head) : `${plain(c.head)} (${shortCommit(c.head_commit)})`;
  return `${plain(c.base)} (${shortCommit(c.base_commit)}) → ${head}`;
}

const where = (r: { file: string; line: number }) => `${r.file}:${r.line}`;

export function refText(r: RefShape): string {
  const symbol = r.symbol === null ? "(free tag)" : r.symbol;
  return plain(`${r.id}  ${where(r)}  ${symbol}${r.is_test ? "  (test)" : ""}`);
}

export function impactText(e: ImpactEntry): string {
  return plain(`${e.file}:${e.start_line}-${e.end_line}  ${e.symbol}  ${e.ids.join(", ")}`);
}

export function problemText(p: Problem): string {
  return plain(`${p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file}: ${p.severity}: ${p.message}`);
}

function items(title: string, changes: ItemChanges, out: string[]): void {
  out.push(`${title}: ${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed`);
  for (const s of changes.added) out.push(`  + ${plain(s.id)}${s.short ? `  ${plain(s.short)}` : ""}`);
  for (const s of changes.removed) out.push(`  - ${plain(s.id)}${s.short ? `  ${plain(s.short)}` : ""}`);
  for (const c of changes.changed) out.push(`  ~ ${plain(c.id)}  ${c.fields.join(", ")}`);
}

// speky:speky-ts#DIFF-FORMATS
export function textReport(c: Changes): string {
  const out = [sidesLine(c)];
  for (const [side, problems] of Object.entries(c.warnings ?? {}) as [string, Problem[]][]) {
    out.push(`the ${side} side's files not compared (${plural(problems.length, "file")}):`);
    for (const p of problems) out.push(`  ${problemText(p)}`);
  }
  if (c.load_errors) {
    for (const [side, problems] of Object.entries(c.load_errors) as [string, Problem[]][]) {
      out.push(`the ${side} side's specifications do not load (${plural(problems.length, "error")}):`);
      for (const p of problems) out.push(`  ${problemText(p)}`);
    }
    out.push("nothing compared");
    return `${out.join("\n")}\n`;
  }
  items("requirements", c.requirements!, out);
  items("tests", c.tests!, out);
  const refs = c.code_references!;
  out.push(`code references: ${refs.added.length} added, ${refs.removed.length} removed`);
  for (const r of refs.added) out.push(`  + ${refText(r)}`);
  for (const r of refs.removed) out.push(`  - ${refText(r)}`);
  out.push(`coverage: ${c.coverage!.length} changed`);
  for (const e of c.coverage!) out.push(`  ${plain(e.id)}  ${e.from} → ${e.to}`);
  out.push(`impact: ${plural(c.impact!.length, "definition")}`);
  for (const e of c.impact!) out.push(`  ${impactText(e)}`);
  out.push(`suspect: ${c.suspect!.length}`);
  for (const s of c.suspect!) {
    const code = s.code.length === 0 ? "it has no tagged definition" : `${plural(s.code.length, "tagged definition")}, untouched:`;
    out.push(`  ${plain(s.id)}  text changed; ${code}`);
    for (const r of s.code) out.push(`    ${refText(r)}`);
  }
  out.push(`rerun: ${c.rerun!.length === 0 ? "none" : plain(c.rerun!.join(", "))}`);
  return `${out.join("\n")}\n`;
}

/** `--format json`: the contract's document, line-safe. */
export function jsonReport(c: Changes): string {
  return `${lineSafeJson(JSON.stringify(c, null, 2))}\n`;
}
