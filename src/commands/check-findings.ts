// The ways `speky check` prints its findings. Each format is whole and deterministic.
import { type Diagnostic, escapeControl, formatDiagnostic, lineSafeJson } from "../diagnostics.js";
import { plural } from "../quote.js";
import { sarifReport } from "./check-sarif.js";

export type CheckFormat = "text" | "json" | "github" | "sarif";
export const CHECK_FORMATS: readonly CheckFormat[] = ["text", "json", "github", "sarif"];

export interface Summary {
  errors: number;
  warnings: number;
  /** Files checked; null when the specs could not be loaded, so nothing was counted. */
  files: number | null;
}

export function summarize(findings: readonly Diagnostic[], files: number | null): Summary {
  const errors = findings.filter((f) => f.severity === "error").length;
  return { errors, warnings: findings.length - errors, files };
}

export function summaryLine(s: Summary): string {
  const counts = `${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}`;
  return s.files === null ? counts : `${counts} in ${plural(s.files, "file")}`;
}

// GitHub workflow commands: data escapes %, CR, LF; properties also escape ':' and ','. Other
// control characters (which GitHub leaves as they are) are escaped like in the text format.
const escapeData = (s: string) => escapeControl(s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

function githubLine(d: Diagnostic): string {
  const props = [`file=${escapeProperty(d.file)}`];
  if (d.line > 0) props.push(`line=${d.line}`, `col=${d.column}`);
  return `::${d.severity} ${props.join(",")}::${escapeData(d.message)}`;
}

/** `root`: the repository root, which SARIF's paths are relative to. */
export function renderReport(format: CheckFormat, findings: readonly Diagnostic[], summary: Summary, root = "."): string {
  switch (format) {
    case "sarif":
      return sarifReport(findings, root);
    case "json":
      return `${lineSafeJson(JSON.stringify({ version: 1, findings, summary }, null, 2))}\n`;
    case "github":
      return `${findings.map((d) => `${githubLine(d)}\n`).join("") + summaryLine(summary)}\n`;
    case "text":
      return `${findings.map((d) => `${formatDiagnostic(d)}\n`).join("") + summaryLine(summary)}\n`;
  }
}
