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

/** Absolute paths of diagnostics' files, where known: kept apart, so no output can carry them. */
const absolutePaths = new WeakMap<Diagnostic, string>();

/**
 * Records the absolute path of the file `d` is about. `file` stays the displayed path (the
 * model's, relative to a manifest root); a command that prints paths relative to another
 * folder (the working directory, the repository root) converts from this one.
 */
export function locatedAt<T extends Diagnostic>(d: T, absPath: string): T {
  absolutePaths.set(d, absPath);
  return d;
}

/** The absolute path recorded by locatedAt, if any (a copy made by spreading has none). */
export function absolutePathOf(d: Diagnostic): string | undefined {
  return absolutePaths.get(d);
}

/** `copy` (a spread of `d`, which loses it) located where `d` is. */
export function relocated<T extends Diagnostic>(d: Diagnostic, copy: T): T {
  const absPath = absolutePaths.get(d);
  return absPath === undefined ? copy : locatedAt(copy, absPath);
}

/**
 * Characters that end a line, steer a terminal or reorder the text around them, besides C0:
 * DEL, C1, U+2028, U+2029, and the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069), with which a file name or a pattern shows in another order
 * than it is (Trojan Source). One list for every escape of this codebase.
 */
const LINE_AND_BIDI = "\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069";
const CONTROL = new RegExp(`[\\u0000-\\u001f${LINE_AND_BIDI}]`, "g");
const CONTROL_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f${LINE_AND_BIDI}]`, "g");
const JSON_UNSAFE = new RegExp(`[${LINE_AND_BIDI}]`, "g");
/** The character class of what escapeControl escapes but tabs and line breaks, for escapes of other kinds (HTML). */
export const UNSAFE_BUT_LINES = CONTROL_BUT_LINES.source.slice(1, -1);
const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The one visible form of an unsafe character: `\n`, `\x1b`, `\u202e`. */
export function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return SHORT_ESCAPES[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
}

// speky:speky-ts#SEC-OUTPUT-ESCAPE
// speky:speky-ts#SEC-BIDI-ESCAPE
/**
 * Text from a repository (file names, quoted content) made safe for a line-based log: every
 * control and bidirectional character becomes a visible escape (`\n`, `\x1b`, `\u202e`), so no
 * input can start a line of its own (a forged `::error` annotation in CI), send terminal
 * escapes or show in another order than it is. `keepLines`: tabs and line breaks stay (a
 * multi-line text shown as such, in the report).
 */
export function escapeControl(text: string, keepLines = false): string {
  return text.replace(keepLines ? CONTROL_BUT_LINES : CONTROL, escapeChar);
}

/**
 * JSON text whose every line break is JSON's own: JSON.stringify escapes C0 but leaves DEL, C1,
 * U+2028, U+2029 and the bidirectional controls raw, which some log readers and terminals take
 * as line ends, commands or reordering; `\u`-escaped here, the JSON's values are unchanged.
 */
export function lineSafeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  return escapeControl(`${where}: ${d.severity}: ${d.message}`);
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
