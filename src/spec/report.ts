import type { Diagnostic, Severity } from "../diagnostics.js";
import type { Pos } from "./node.js";

/** Collects the diagnostics of one file, all cited with that file's displayed path. */
export class FileReport {
  constructor(
    readonly file: string,
    private readonly sink: Diagnostic[],
  ) {}

  error(at: Pos | null, message: string): void {
    this.add("error", at, message);
  }

  warning(at: Pos | null, message: string): void {
    this.add("warning", at, message);
  }

  private add(severity: Severity, at: Pos | null, message: string): void {
    this.sink.push({
      file: this.file,
      line: at?.line ?? 0,
      column: at?.column ?? 0,
      severity,
      message,
    });
  }
}

export function formatPos(file: string, at: Pos): string {
  return `${file}:${at.line}:${at.column}`;
}
