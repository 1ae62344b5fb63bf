// `--format markdown`: the summary, the coverage table and the problems, for a GitHub step
// summary or a pull-request comment. Repository text is plain text (src/text/markdown-inline.ts) that
// can neither format, link, mention (@someone), inject HTML nor start a line of its own; paths are code.
import type { Diagnostic } from "../diagnostics.js";
import { codeSpan, plainText } from "../text/markdown-inline.js";
import { BUCKET_LABELS, BUCKETS, problemCount, type ReportData } from "./data.js";
import { markdownVerification } from "./verification.js";

// speky:speky-ts#REPORT-MARKDOWN-PATHS
/** "- `file:line:col`: severity: message", the place as code (a path as it is), the message as text. */
function problemLine(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  const place = where === "" ? "" : `${codeSpan(where)}: `;
  return `- ${place}${d.severity}: ${plainText(d.message)}`;
}

const MAX_PROBLEMS = 200;

// speky:speky-ts#REPORT-MARKDOWN
export function markdownReport(data: ReportData): string {
  const m = data.model;
  const out: string[] = [];
  out.push(`## Traceability report: ${plainText(data.title)}`, "");
  const commit = data.generation.commit ? ` from commit ${data.generation.commit.slice(0, 12)}` : "";
  const n = data.generation.uncommitted ?? 0;
  const dirty = n > 0 ? `, **with uncommitted changes** (${n === 1 ? "1 file read differs" : `${n} files read differ`} from it)` : "";
  out.push(`Generated ${data.generation.time}${commit}${dirty}.`, "");
  out.push("| Requirements | Tests | Code references | Problems |", "| ---: | ---: | ---: | ---: |");
  out.push(`| ${m.specs.requirements.length} | ${m.specs.tests.length} | ${m.codeReferences.length} | ${problemCount(data)} |`, "");
  out.push("### Coverage", "");
  if (data.coverage.length === 0) {
    out.push("No requirement is in the coverage scope.", "");
  } else {
    // speky:speky-ts#REPORT-MARKDOWN-COLUMNS
    // The buckets' counts, their total, and the share of the last bucket: one name per column.
    out.push(`| Category | ${BUCKETS.map((b) => BUCKET_LABELS[b]).join(" | ")} | Total | % automated |`);
    out.push(`| --- | ${BUCKETS.map(() => "---:").join(" | ")} | ---: | ---: |`);
    const row = (name: string, counts: Record<string, number>, total: number) => {
      const share = total === 0 ? "" : `${Math.round((100 * counts.automated_test_plan) / total)}%`;
      return `| ${name} | ${BUCKETS.map((b) => counts[b]).join(" | ")} | ${total} | ${share} |`;
    };
    for (const c of data.coverage) out.push(row(plainText(c.category), c.counts, c.total));
    out.push(
      row(
        "**All**",
        data.coverageTotal,
        BUCKETS.reduce((n, b) => n + data.coverageTotal[b], 0),
      ),
      "",
    );
  }
  out.push(...markdownVerification(data));
  const problems = [...data.problems.dangling, ...data.problems.verification, ...data.problems.scanner, ...data.problems.loader];
  out.push(`### Problems (${problems.length})`, "");
  if (problems.length === 0) out.push("None.", "");
  else {
    for (const d of problems.slice(0, MAX_PROBLEMS)) out.push(problemLine(d));
    if (problems.length > MAX_PROBLEMS) out.push(`- … and ${problems.length - MAX_PROBLEMS} more (see speky check)`);
    out.push("");
  }
  return out.join("\n");
}
