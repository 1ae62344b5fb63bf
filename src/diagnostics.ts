// One shape for every problem we report (loader, scanner, check), so every consumer
// prints, sorts and serialises them the same way.
export type Severity = "error" | "warning";

export interface Diagnostic {
  /** Displayed path (relative to a manifest root, or as given on the command line). */
  file: string;
  /** 1-based; 0 when the problem concerns the whole file. */
  line: number;
  /** 1-based; 0 when the problem concerns the whole file. */
  column: number;
  severity: Severity;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  return `${where}: ${d.severity}: ${d.message}`;
}

/** Code-point order, never locale order: output must be byte-identical everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.severity, b.severity) ||
    compareStrings(a.message, b.message)
  );
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}
