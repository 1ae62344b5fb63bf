import { absolutePathOf, type Diagnostic, escapeControl, locatedAt, type Severity } from "../diagnostics.js";
import { plural } from "../quote.js";
import type { Pos } from "./format/node.js";

/** Warnings kept per file for one cause, as the scanner keeps them (src/scan/engine/cap.ts). */
export const WARNINGS_PER_CAUSE = 3;
/** Errors kept per file for one cause: enough to fix a file by, never a million lines. */
export const ERRORS_PER_CAUSE = 100;

/**
 * What a message says without what it quotes or counts: `unknown column 'x1' (ignored)` and
 * `unknown column 'x2' (ignored)` are one cause.
 */
export function causeOf(message: string): string {
  // From the first quote to the last: a quoted value may hold quotes of its own.
  return message.replace(/'.*'/s, "'…'").replace(/\d[\d,.]*/g, "N");
}

interface Capped {
  summary: Diagnostic;
  omitted: number;
  /** The first message left out, on one line. */
  first: string;
}

// speky:speky-ts#SEC-WARNING-CAP
/**
 * Collects the diagnostics of one file, all cited with that file's displayed path. A file
 * cannot flood the output: past WARNINGS_PER_CAUSE warnings (ERRORS_PER_CAUSE errors) of one
 * cause, one diagnostic counts the rest, at the first one left out; the rest are never built
 * into diagnostics (a CSV header of a million unknown columns gave a million warnings).
 */
export class FileDiagnostics {
  /** Errors reported so far for this file (those counted past the cap included). */
  errors = 0;
  private readonly causes = new Map<string, number>();
  private readonly capped = new Map<string, Capped>();

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

  /** `cause`: what messages of one kind share, when the message does not tell (default causeOf). */
  add(severity: Severity, at: Pos | null, message: string, cause = causeOf(message)): void {
    const kept = this.admit(severity, at, message, cause);
    if (kept) this.push({ file: this.file, line: at?.line ?? 0, column: at?.column ?? 0, severity, message: escapeControl(message) });
  }

  /** Counts one diagnostic against the cap; false when it is only counted (its summary is in the sink). */
  admit(severity: Severity, at: Pos | null, message: string, cause = causeOf(message)): boolean {
    if (severity === "error") this.errors++;
    const key = `${severity}\0${cause}`;
    const seen = (this.causes.get(key) ?? 0) + 1;
    this.causes.set(key, seen);
    if (seen <= (severity === "error" ? ERRORS_PER_CAUSE : WARNINGS_PER_CAUSE)) return true;
    let capped = this.capped.get(key);
    if (!capped) {
      const summary = { file: this.file, line: at?.line ?? 0, column: at?.column ?? 0, severity, message: "" };
      this.push(summary);
      this.capped.set(key, (capped = { summary, omitted: 0, first: escapeControl(message) }));
    }
    capped.omitted++;
    capped.summary.message = `${plural(capped.omitted, `more ${severity}`)} like this in this file: ${capped.first}`;
    return false;
  }

  private push(d: Diagnostic): void {
    this.sink.push(this.path === undefined ? d : locatedAt(d, this.path));
  }
}

export function formatPos(file: string, at: Pos): string {
  return `${file}:${at.line}:${at.column}`;
}

/**
 * The same diagnostics, capped per file and cause as FileDiagnostics caps them as they come:
 * those kept are the very objects given (with their recorded paths), the counts new ones.
 */
export function capPerFile(diagnostics: readonly Diagnostic[], cause: (d: Diagnostic) => string = (d) => causeOf(d.message)): Diagnostic[] {
  const out: Diagnostic[] = [];
  const files = new Map<string, FileDiagnostics>();
  for (const d of diagnostics) {
    const path = absolutePathOf(d);
    const key = `${d.file}\0${path ?? ""}`;
    let report = files.get(key);
    if (!report) files.set(key, (report = new FileDiagnostics(d.file, out, path)));
    if (report.admit(d.severity, d.line === 0 && d.column === 0 ? null : d, d.message, cause(d))) out.push(d);
  }
  return out;
}
