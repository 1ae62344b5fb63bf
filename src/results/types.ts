// What a JUnit XML results file holds for speky-ts: its testcases, each with the attributes
// that locate it and its outcome (docs/verification.md, "Inputs"). Plain data.
import type { Diagnostic } from "../diagnostics.js";

/** A testcase's outcome as the file tells it: a `<failure>`, an `<error>`, a `<skipped>`, or none. */
export type CaseOutcome = "passed" | "failed" | "error" | "skipped";

export interface Testcase {
  /** Index of its results file in the run's file list. */
  source: number;
  classname: string;
  name: string;
  /** The testcase's own `file` attribute (googletest, PHPUnit, RSpec...), as written. */
  file?: string;
  line?: number;
  /** The `file` (or `filepath`) of the nearest enclosing suite that has one (mocha, PHPUnit). */
  suiteFile?: string;
  outcome: CaseOutcome;
  /** Seconds, when the runner writes a `time`. */
  time?: number;
  /** The failure's or error's `message` attribute and text, bounded (failed and errored cases only). */
  failure?: string;
  /** The start of the case's `<system-out>`, bounded (failed and errored cases only). */
  output?: string;
  /** Where the testcase's start tag ends in its results file. */
  xmlLine: number;
  /** The column there (a one-line file, as pytest writes, needs it to point at the testcase). */
  xmlColumn?: number;
}

export interface ResultsFile {
  /** Displayed path: relative to the manifest root (test_results) or the working directory (--results). */
  file: string;
  /** Absolute path (what a watcher watches; never shown). */
  abs: string;
  /** When the run happened: the first `timestamp` the file writes, else the file's modification time (ISO 8601). */
  timestamp: string;
  /** Testcases read from it (0 when it was ignored). */
  testcases: number;
  /** The file's modification time, ms (a checkout gives the results and the tests the same). */
  mtimeMs?: number;
  /**
   * Errors the file counts that none of its testcases holds: gotestsum leaves a package that
   * failed to build out of its testcases and counts it in `<testsuites errors>`.
   */
  unlistedErrors?: number;
}

/** Everything read for one model: the files, their testcases, and their problems. */
export interface ResultsRead {
  files: ResultsFile[];
  testcases: Testcase[];
  /** Located errors (a malformed file, a bound) and warnings (a glob that matched nothing), sorted. */
  diagnostics: Diagnostic[];
}
