import { type Diagnostic, locatedAt, type Severity } from "../diagnostics.js";
import type { Pos } from "./node.js";

/** Collects the diagnostics of one file, all cited with that file's displayed path. */
export class FileDiagnostics {
  /** Errors reported so far for this file. */
  errors = 0;

  constructor(
    readonly file: string,
    private readonly sink: Diagnostic[],
    /** Absolute path of the file, recorded on each diagnostic (diagnostics.ts locatedAt). */
    readonly path?: string,
  ) {}

  error(at: Pos | null, message: string): void {
    this.add("error", at, message);
  }

  warning(at: Pos | null, message: string): void {
    this.add("warning", at, message);
  }

  private add(severity: Severity, at: Pos | null, message: string): void {
    if (severity === "error") this.errors++;
    const d: Diagnostic = { file: this.file, line: at?.line ?? 0, column: at?.column ?? 0, severity, message: oneLine(message) };
    this.sink.push(this.path === undefined ? d : locatedAt(d, this.path));
  }
}

/** Line breaks and other control characters that a message quotes from a file. */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A message on one line, whatever text of the file it quotes (an ID ending in a carriage
 * return, a CSV header with a line break...): such characters are shown escaped.
 */
export function oneLine(message: string): string {
  return message.replace(CONTROL, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

export function formatPos(file: string, at: Pos): string {
  return `${file}:${at.line}:${at.column}`;
}
