// A small project with test results, written into a temporary folder for each suite: pytest
// tests tagged with three test plans, and a results file in pytest's own format.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./process.js";

export const TESTS_PY = [
  "import pytest",
  "",
  "",
  "# speky:mini#T-OK",
  "def test_ok():",
  "    pass",
  "",
  "",
  "# speky:mini#T-BAD",
  "@pytest.mark.parametrize('n', [1, 2])",
  "def test_bad(n):",
  "    assert n == 1",
  "",
].join("\n");

/** pytest's --junitxml for TESTS_PY; `bad` says whether test_bad[2] fails. */
export function pytestXml(bad: boolean): string {
  const failure = bad ? `<failure message="AssertionError: assert 2 == 1">n = 2\n&gt;   assert n == 1\nE   AssertionError</failure>` : "";
  return [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<testsuites><testsuite name="pytest" errors="0" failures="${bad ? 1 : 0}" skipped="0" tests="3" time="0.02" timestamp="2026-03-04T05:06:07.000001" hostname="ci">`,
    `<testcase classname="tests.test_shop" name="test_ok" time="0.001" />`,
    `<testcase classname="tests.test_shop" name="test_bad[1]" time="0.001" />`,
    `<testcase classname="tests.test_shop" name="test_bad[2]" time="0.002">${failure}</testcase>`,
    `<testcase classname="tests.test_shop" name="test_other" time="0.001" />`,
    `</testsuite></testsuites>`,
    "",
  ].join("\n");
}

export const REQUIREMENTS_YAML = [
  "kind: requirements",
  "category: shop",
  "requirements:",
  "  - id: R-OK",
  "    long: Verified by a passing test.",
  "  - id: R-BAD",
  "    long: Tested by a failing test plan and a passing one.",
  "  - id: R-MANUAL",
  "    long: Tested by hand only.",
  "",
].join("\n");

export const TESTS_YAML = [
  "kind: tests",
  "category: shop",
  "tests:",
  "  - id: T-OK",
  "    long: Passes.",
  "    ref: [R-OK, R-BAD]",
  "    steps:",
  "      - action: run pytest",
  "  - id: T-BAD",
  "    long: One case fails.",
  "    ref: [R-BAD]",
  "    steps:",
  "      - action: run pytest",
  "  - id: T-MANUAL",
  "    long: By hand.",
  "    ref: [R-MANUAL]",
  "    steps:",
  "      - action: look",
  "",
].join("\n");

function write(dir: string, rel: string, text: string | Buffer): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}

/** The tree; `testResults` false leaves the manifest without test_results (and no results file). */
export function resultsTree(options: { testResults?: boolean; bad?: boolean } = {}): string {
  const dir = tempDir("speky-results-tree-");
  const withResults = options.testResults ?? true;
  write(
    dir,
    "speky.yaml",
    [
      "kind: project",
      "name: mini",
      "files: [specs/*.yaml]",
      "code_sources: [tests/*.py]",
      ...(withResults ? ["test_results: [reports/*.xml]"] : []),
      "",
    ].join("\n"),
  );
  write(dir, "specs/requirements.yaml", REQUIREMENTS_YAML);
  write(dir, "specs/tests.yaml", TESTS_YAML);
  write(dir, "tests/test_shop.py", TESTS_PY);
  if (withResults) write(dir, "reports/pytest.xml", pytestXml(options.bad ?? true));
  return dir;
}

export { write as writeTreeFile };
