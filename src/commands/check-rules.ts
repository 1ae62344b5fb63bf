// The kinds of finding `speky check` reports, as SARIF rules (check-sarif.ts): one stable ID
// each, for code scanning to keep its alerts by. A finding is told by its message (one shape
// per kind, src/model/problems.ts, src/loader, src/scan, src/results); a message of no known
// shape falls to the generic spec rule of its severity, so no finding is ever lost.
import type { Diagnostic } from "../diagnostics.js";

export interface CheckRule {
  /** Stable: code scanning keys its alerts by it. Never renamed, never reused. */
  id: string;
  /** PascalCase, as SARIF names rules. */
  name: string;
  level: "error" | "warning";
  short: string;
  full: string;
  help: string;
  /** Matches the message (without a cap's "N more ... in this file: " prefix). */
  matches: RegExp;
}

// speky:speky-ts#CHECK-SARIF-RULES
/** In this order a message is matched: the specific kinds first, the generic ones last. */
export const CHECK_RULES: readonly CheckRule[] = [
  {
    id: "speky/unknown-id-in-code",
    name: "DanglingCodeTag",
    level: "error",
    short: "A code tag names an ID no specification defines",
    full: "A `speky:PROJECT#ID` tag in code or in a test names an ID that is neither a requirement nor a test plan of the loaded specifications.",
    help: "Fix the ID in the tag (the message suggests the closest ID), or add the requirement or test plan it should name to the specifications.",
    matches: /^tag speky:.* names an unknown ID /s,
  },
  {
    id: "speky/unknown-id-in-spec",
    name: "UnknownSpecReference",
    level: "error",
    short: "A specification refers to an ID no specification defines",
    full: "A test plan's ref or prereq, or a comment's about, names an ID that no loaded requirement or test plan has.",
    help: "Correct the ID (the message suggests the closest one), or add the file defining it to the manifest.",
    matches: /^(?:unknown [a-z_]+|comment about unknown ID) '/,
  },
  {
    id: "speky/duplicate-id",
    name: "DuplicateId",
    level: "error",
    short: "Two items share an ID",
    full: "Two requirements or test plans of the loaded specifications have the same ID; tags and references to it are ambiguous.",
    help: "Rename one of them; the message says where the first is defined.",
    matches: /^duplicate ID '/,
  },
  {
    id: "speky/reference-kind",
    name: "ReferenceOfWrongKind",
    level: "warning",
    short: "A reference names an item of the other kind",
    full: "A test plan's ref names a test plan instead of a requirement, or its prereq names a requirement instead of a test plan.",
    help: "Point ref at the requirements the test verifies and prereq at the test plans that must pass first.",
    matches: /names a (?:test, not a requirement|requirement, not a test)$/,
  },
  {
    id: "speky/test-failed",
    name: "TaggedTestFailed",
    level: "error",
    short: "A tagged test failed in the test results",
    full: "A test tagged with a test plan or requirement ID failed or errored in the JUnit XML results given to the check.",
    help: "Fix the test or the code it tests; the message names the testcase and where the results file reports it.",
    matches: /^(?:test plan|requirement) .* failed: (?:failure of|error in) /s,
  },
  {
    id: "speky/requirement-not-verified",
    name: "RequirementNotVerified",
    level: "error",
    short: "A requirement is not verified by the test results",
    full: "With --require-verified, a requirement of the coverage scope whose test plans did not all pass in the test results.",
    help: "Add or tag the tests that verify the requirement, or make them pass, and give their JUnit XML results.",
    matches: /^requirement .* is not verified \(/s,
  },
  {
    id: "speky/results-file",
    name: "UnreadableResults",
    level: "error",
    short: "A test results file could not be read",
    full: "A JUnit XML results file is missing, refused, malformed or past a bound; its results are ignored.",
    help: "Check the --results globs or the manifest's test_results, and that the test runner wrote JUnit XML.",
    matches: /; its results are ignored$|^not read: more than .* results files|^results file/s,
  },
  {
    id: "speky/spec-syntax",
    name: "SpecSyntaxError",
    level: "error",
    short: "A specification file cannot be parsed",
    full: "A YAML, TOML or CSV specification file has a syntax error, or is empty, or holds more than one document.",
    help: "Fix the syntax at the position given; the rest of the file is not read.",
    matches: /^(?:YAML|TOML)\b|^unterminated quoted field|^empty (?:CSV )?file|single YAML document|alias expansions/,
  },
  {
    id: "speky/failed-file-dependent",
    name: "DependsOnFailedFile",
    level: "error",
    short: "References to IDs of a file that failed to load",
    full: "Items name IDs defined in a specification file that failed to load; they are counted under that file's error.",
    help: "Fix the file that failed to load; these references are checked again once it loads.",
    matches: /which failed to load$/,
  },
  {
    id: "speky/code-sources",
    name: "CodeSourcesProblem",
    level: "warning",
    short: "A code_sources or test_results pattern reaches nothing, or is refused",
    full: "A glob of the manifest matched no file, names a file or folder that does not exist, cannot be listed, or leads outside the repository.",
    help: "Correct the pattern in the manifest, or pass --allow-outside for a tree you trust.",
    matches: /matched no file|cannot list the folder|\(in the glob |: refused$|^file '.*' not found$/s,
  },
  {
    id: "speky/findings-left-out",
    name: "FindingsLeftOut",
    level: "warning",
    short: "More findings than code scanning takes in one run",
    full: "Code scanning rejects a run of more than 25,000 results: the errors are kept first, and this result counts the findings left out.",
    help: "Run speky check for the whole list, and fix the most frequent kinds first.",
    matches: /^[\d,]+ more findings are left out: code scanning takes /,
  },
  {
    id: "speky/code-tag",
    name: "CodeTagProblem",
    level: "warning",
    short: "A code tag is malformed, misplaced or not scanned",
    full: "A `speky:` tag that is not one (in a string literal or in code, malformed), a tag around a parse error, a tag in a file that is not scanned, or tags not checked because their manifest has errors.",
    help: "Write the tag as `speky:PROJECT#ID` in a comment, next to the code it traces.",
    matches: /\btags?\b/,
  },
  {
    id: "speky/spec-invalid",
    name: "SpecInvalid",
    level: "error",
    short: "A specification file breaks the format",
    full: "A manifest or specification file does not follow speky's format: a missing or mistyped field, an unknown kind, a bad value.",
    help: "Fix the field at the position given; `speky check` reports every such error of a file at once.",
    matches: /^/,
  },
  {
    id: "speky/spec-warning",
    name: "SpecWarning",
    level: "warning",
    short: "A specification file has a likely mistake",
    full: "A manifest or specification file has something speky ignores or doubts: an unknown field, a duplicate key, a value of an unexpected form, a coverage category without requirements.",
    help: "Correct or remove what the warning names; `speky check --strict` fails on warnings.",
    matches: /^/,
  },
];

/** What a cap's summary says before the first message it counts (FileDiagnostics, src/scan/engine/cap.ts). */
const CAP_PREFIX = /^[\d,]+ more [^:]*in this file: /;

/** The message of the kind a finding is: a cap's summary is of the kind of the message it counts. */
export function kindMessage(message: string): string {
  return message.replace(CAP_PREFIX, "");
}

// speky:speky-ts#CHECK-SARIF-RULES
/** The index in CHECK_RULES of a finding's rule. */
export function ruleIndexOf(d: Diagnostic): number {
  const message = kindMessage(d.message);
  const generic = d.severity === "error" ? "speky/spec-invalid" : "speky/spec-warning";
  const index = CHECK_RULES.findIndex((r) => (r.matches.source === "^" ? r.id === generic : r.matches.test(message)));
  return index;
}
