// Trees for the CI outputs (`check --format sarif`, the GitHub Action): one with every kind of
// specification and code-tag finding, one with test results (a failed test, an unreadable
// results file), one that passes. Each is a record of files, written where a suite wants it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pytestXml, REQUIREMENTS_YAML, TESTS_PY, TESTS_YAML } from "./results-tree.js";

export type TreeFiles = Record<string, string>;

/** Every kind of finding the specs and the code tags give; the specs do not load (no results are read). */
export const SPEC_ERRORS_TREE: TreeFiles = {
  "speky.yaml": ["kind: project", "name: shop", "files: [specs/*.yaml]", "code_sources: [src/*.py, missing/*.py]", ""].join("\n"),
  "specs/requirements.yaml": [
    "kind: requirements",
    "category: shop",
    "colour: blue",
    "requirements:",
    "  - id: R-OK",
    "    long: Fine.",
    "  - id: R-OK",
    "    long: Twice.",
    "",
  ].join("\n"),
  "specs/tests.yaml": [
    "kind: tests",
    "category: shop",
    "tests:",
    "  - id: T-A",
    "    long: Refers to an unknown ID, a test and the broken file.",
    "    ref: [R-NOPE, T-B, R-BROKEN]",
    "    steps:",
    "      - action: run",
    "  - id: T-B",
    "    steps: 3",
    "",
  ].join("\n"),
  "specs/broken.yaml": ["kind: requirements", "category: broken", "requirements:", "  - id: R-BROKEN", '    long: "never closed', ""].join(
    "\n",
  ),
  "src/shop.py": [
    "# speky:shop#R-OK",
    "def ok():",
    "    pass",
    "",
    "# speky:shop#R-OKK",
    "def typo():",
    "    pass",
    "",
    'x = "speky:shop#R-OK"',
    "# speky:shop",
    "",
  ].join("\n"),
};

/** The shop of results-tree.ts with its pytest results: T-BAD failed; `bad` false: every test passed. */
export function resultsTreeFiles(bad: boolean): TreeFiles {
  return {
    "speky.yaml": ["kind: project", "name: mini", "files: [specs/*.yaml]", "code_sources: [tests/*.py]", ""].join("\n"),
    "specs/requirements.yaml": REQUIREMENTS_YAML,
    "specs/tests.yaml": TESTS_YAML,
    "tests/test_shop.py": TESTS_PY,
    "reports/pytest.xml": pytestXml(bad),
  };
}

/** A tree without any finding, and no results. */
export const PASSING_TREE: TreeFiles = {
  "speky.yaml": ["kind: project", "name: mini", "files: [specs/*.yaml]", "code_sources: [tests/*.py]", ""].join("\n"),
  "specs/requirements.yaml": REQUIREMENTS_YAML,
  "specs/tests.yaml": TESTS_YAML,
  "tests/test_shop.py": TESTS_PY,
};

export function writeTree(dir: string, files: TreeFiles): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}
