// stdout belongs to the protocol: every human-readable line goes to stderr, filtered by level.
import { type Diagnostic, escapeControl, formatDiagnostic } from "../diagnostics.js";

export type LogLevel = "quiet" | "normal" | "verbose";

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /** A loader or scanner finding, printed as the CLI prints it; warnings are quiet under --quiet. */
  diagnostic(d: Diagnostic): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  // Messages quote file names and content: escaped, so that each log line is one line.
  const emit = (tag: string) => (message: string) => write(`speky-mcp: ${tag}${escapeControl(message)}\n`);
  const skip = () => {};
  return {
    error: emit("error: "),
    warn: level === "quiet" ? skip : emit("warning: "),
    info: level === "quiet" ? skip : emit(""),
    debug: level === "verbose" ? emit("debug: ") : skip,
    diagnostic: (d) => {
      if (d.severity === "error" || level !== "quiet") write(`${formatDiagnostic(d)}\n`);
    },
  };
}
