// Reading one JUnit XML results file, streamed: chunks of the file go through saxes (a strict,
// non-validating XML parser) and only the testcases are kept. A results file is untrusted
// input like any other (docs/security.md, "Test results"):
// - a DOCTYPE is refused where it starts, before anything of it is used: no DTD, so no entity
//   is ever defined, expanded or fetched (saxes never reads external entities, and an entity
//   reference it does not know is an error);
// - the file's size (fstat, before reading) and the run's number of testcases are bounded;
// - malformed XML is one located error (file:line:col) and the file's results are ignored.
import { SaxesParser, type SaxesTagPlain } from "saxes";
import type { Diagnostic } from "../diagnostics.js";
import { isRefusal, openRegular } from "../fs/safe-read.js";
import { LongRunCutter } from "./long-runs.js";
import type { CaseOutcome, Testcase } from "./types.js";

/** A results file larger than this is refused unread (50,000 pytest testcases take 4.4 MB). */
export const MAX_RESULTS_FILE_BYTES = 128 * 1024 * 1024;
/** Testcases kept for one model, over all its results files (the bench reads 50,000). */
export const MAX_TESTCASES = 500_000;
/** Characters kept of a failure's text and of a failed case's output: enough for its first lines. */
const MAX_CAPTURE = 4096;
/**
 * Characters kept of a testcase's `name`, `classname` and `file` (and a suite's `file`): a longer
 * one is cut to this prefix with a warning at its line. Real names stay far below it (a
 * parametrized id, a describe path); matching is linear in what is kept.
 */
export const MAX_NAME = 4096;
/** Elements nested deeper than this are no JUnit report. */
const MAX_DEPTH = 256;
const CHUNK_BYTES = 1024 * 1024;

export interface FileRead {
  /** The file's testcases, in document order; empty when it was ignored. */
  testcases: Testcase[];
  /** The first `timestamp` the file writes (testsuites or testsuite), as written. */
  timestamp: string | null;
  mtime: Date | null;
  /** At most one error: the file's results are then ignored. */
  error: Diagnostic | null;
  /** Warnings about a file that is read (a name cut), at most one per kind. */
  warnings: Diagnostic[];
  /** The root `<testsuites errors>` count, when written (gotestsum counts there a package that did not build). */
  declaredErrors?: number;
}

interface Suite {
  file?: string;
}

const OUTCOME_RANK: Record<CaseOutcome, number> = { passed: 0, skipped: 1, failed: 2, error: 3 };
/** googletest's `result`, ctest's `status` for a case that did not run. */
const NOT_RUN = new Set(["skipped", "notrun", "disabled", "suppressed"]);

class Collector {
  readonly testcases: Testcase[] = [];
  timestamp: string | null = null;
  declaredErrors: number | undefined;
  error: { line: number; column: number; message: string } | null = null;
  /** Where the first name longer than MAX_NAME was cut, and how many were. */
  cut: { line: number; column: number; count: number } | null = null;
  private readonly suites: Suite[] = [];
  private depth = 0;
  private root = true;
  private current: Testcase | null = null;
  /** Depth of the testcase element being read, and what its text goes to. */
  private caseDepth = 0;
  private capture: "failure" | "output" | null = null;

  constructor(
    private readonly parser: SaxesParser,
    private readonly source: number,
    private readonly room: number,
  ) {}

  fail(message: string, line = this.parser.line, column = this.parser.column): void {
    this.error ??= { line, column: Math.max(column, 1), message };
  }

  open(tag: SaxesTagPlain): void {
    if (this.error) return;
    this.depth++;
    if (this.depth > MAX_DEPTH) {
      this.fail(`elements nested deeper than ${MAX_DEPTH}: not a JUnit report`);
      return;
    }
    const { name, attributes: a } = tag;
    if (this.root) {
      this.root = false;
      if (name !== "testsuites" && name !== "testsuite") {
        this.fail(`the root element is <${clip(name)}>, not <testsuites> or <testsuite>: not a JUnit XML report`);
        return;
      }
      const errors = Number(a.errors);
      if (name === "testsuites" && Number.isInteger(errors) && errors > 0) this.declaredErrors = errors;
    }
    if (this.current) {
      this.openInCase(name, a);
      return;
    }
    if (name === "testsuite" || name === "testsuites") {
      this.timestamp ??= a.timestamp || null;
      const file = this.name(a.file || a.filepath);
      this.suites.push(file ? { file } : {});
      return;
    }
    if (name !== "testcase") return;
    if (this.testcases.length >= this.room) {
      this.fail(`more than ${MAX_TESTCASES.toLocaleString("en-US")} testcases in this run's results`);
      return;
    }
    const testcase: Testcase = {
      source: this.source,
      classname: this.name(a.classname ?? ""),
      name: this.name(a.name ?? ""),
      outcome: "passed",
      xmlLine: this.parser.line,
      xmlColumn: this.parser.column,
    };
    if (a.file) testcase.file = this.name(a.file);
    const line = Number(a.line);
    if (Number.isInteger(line) && line > 0) testcase.line = line;
    const suiteFile = this.suiteFile();
    if (suiteFile !== undefined) testcase.suiteFile = suiteFile;
    const time = Number(a.time);
    if (a.time !== undefined && a.time !== "" && Number.isFinite(time) && time >= 0) testcase.time = time;
    if (NOT_RUN.has(a.result ?? "") || NOT_RUN.has(a.status ?? "")) testcase.outcome = "skipped";
    this.current = testcase;
    this.caseDepth = this.depth;
  }

  private openInCase(name: string, a: Record<string, string>): void {
    const testcase = this.current!;
    // Direct children only: Surefire's <flakyFailure>/<rerunFailure> are reruns, not the outcome.
    if (this.depth !== this.caseDepth + 1) return;
    const outcome: CaseOutcome | null = name === "failure" ? "failed" : name === "error" ? "error" : name === "skipped" ? "skipped" : null;
    if (outcome) {
      if (OUTCOME_RANK[outcome] > OUTCOME_RANK[testcase.outcome]) testcase.outcome = outcome;
      if (outcome !== "skipped") {
        this.capture = "failure";
        if (a.message) this.append(`${a.message}\n`);
      }
    } else if (name === "system-out") this.capture = "output";
  }

  // speky:speky-ts#RESULTS-LINEAR
  /**
   * An attribute as kept: at most MAX_NAME characters, copied (a slice of a long string would
   * keep the whole string alive).
   */
  private name<T extends string | undefined>(value: T): T {
    if (value === undefined || value.length <= MAX_NAME) return value;
    if (this.cut) this.cut.count++;
    else this.cut = { line: this.parser.line, column: Math.max(this.parser.column, 1), count: 1 };
    return copy(value.slice(0, MAX_NAME)) as T;
  }

  private suiteFile(): string | undefined {
    for (let i = this.suites.length - 1; i >= 0; i--) if (this.suites[i].file) return this.suites[i].file;
    return undefined;
  }

  text(text: string): void {
    if (this.capture && !this.error) this.append(text);
  }

  private append(text: string): void {
    const testcase = this.current!;
    const field = this.capture!;
    const now = testcase[field] ?? "";
    if (now.length < MAX_CAPTURE) testcase[field] = copy(now + text.slice(0, MAX_CAPTURE - now.length));
  }

  close(name: string): void {
    if (this.error) return;
    if (this.current && this.depth === this.caseDepth + 1) this.capture = null;
    if (this.current && this.depth === this.caseDepth) {
      const testcase = this.current;
      // Kept for a failed or errored case only: nothing else shows it.
      if (testcase.outcome === "passed" || testcase.outcome === "skipped") {
        delete testcase.failure;
        delete testcase.output;
      }
      this.testcases.push(testcase);
      this.current = null;
    } else if (!this.current && (name === "testsuite" || name === "testsuites")) this.suites.pop();
    this.depth--;
  }
}

/** A string that shares no memory with the one it was sliced from. */
const copy = (s: string) => Buffer.from(s, "utf16le").toString("utf16le");

const clip = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}...` : s);

/**
 * Reads one results file; `room` is how many testcases the run may still take. A refused or
 * malformed file gives its error and no testcases.
 */
// speky:speky-ts#RESULTS-READ
export async function readJUnitFile(abs: string, display: string, source: number, room: number): Promise<FileRead> {
  const at = (line: number, column: number, message: string): FileRead => ({
    testcases: [],
    timestamp: null,
    mtime: null,
    error: { file: display, line, column, severity: "error", message: `${message}; its results are ignored` },
    warnings: [],
  });
  const opened = await openRegular(abs, { maxBytes: MAX_RESULTS_FILE_BYTES });
  if (isRefusal(opened)) return at(0, 0, `results file: ${opened.problem}`);
  const { handle, stat } = opened;
  const parser = new SaxesParser({ position: true });
  const collector = new Collector(parser, source, room);
  /** The text before the root element: where a DOCTYPE starts is found in it. */
  let prolog = "";
  let inProlog = true;
  parser.on("doctype", () => {
    const start = prolog.indexOf("<!DOCTYPE");
    const before = start < 0 ? prolog : prolog.slice(0, start);
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    collector.fail("a DOCTYPE is not allowed in a results file (no DTD, no entities are read)", line, column);
  });
  parser.on("opentag", (tag) => {
    inProlog = false;
    collector.open(tag as SaxesTagPlain);
  });
  parser.on("closetag", (tag) => collector.close(tag.name));
  parser.on("text", (text) => collector.text(text));
  parser.on("cdata", (text) => collector.text(text));
  parser.on("error", (error) => collector.fail(error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "")));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const cutter = new LongRunCutter();
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    // What fstat gave is read: a file growing meanwhile is read no further.
    for (let position = 0; position < stat.size && !collector.error; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, stat.size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const text = decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      if (inProlog && prolog.length < 65536) prolog += text.slice(0, 65536);
      parser.write(cutter.cut(text));
    }
    if (!collector.error) parser.write(cutter.cut(decoder.decode())).close();
  } catch (error) {
    if (error instanceof TypeError) collector.fail("not UTF-8 text (results files are read as UTF-8)");
    else collector.fail(`cannot read the results file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 0, 0);
  } finally {
    await handle.close();
  }
  if (collector.error) {
    const e = collector.error;
    return at(e.line, e.line === 0 ? 0 : e.column, e.message);
  }
  const warnings: Diagnostic[] = [];
  if (collector.cut) {
    const { line, column, count } = collector.cut;
    const more = count > 1 ? ` (and ${(count - 1).toLocaleString("en-US")} more)` : "";
    const message = `a testcase's name longer than ${MAX_NAME.toLocaleString("en-US")} characters is cut to its start${more}`;
    warnings.push({ file: display, line, column, severity: "warning", message });
  }
  const read: FileRead = { testcases: collector.testcases, timestamp: collector.timestamp, mtime: stat.mtime, error: null, warnings };
  if (collector.declaredErrors !== undefined) read.declaredErrors = collector.declaredErrors;
  return read;
}
