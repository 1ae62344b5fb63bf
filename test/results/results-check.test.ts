// `speky check` and `speky report` with test results: the built binary on a small tree whose
// pytest results hold a failed parametrized case (test/support/results-tree.ts).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSpeky } from "../support/process.js";
import { pytestXml, resultsTree, writeTreeFile } from "../support/results-tree.js";

const dirs: string[] = [];
const tree = (options?: Parameters<typeof resultsTree>[0]) => {
  const dir = resultsTree(options);
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FAILED =
  "tests/test_shop.py:11:5: error: test plan T-BAD (verifies R-BAD) failed: failure of test_bad[2] (reports/pytest.xml:5:70): AssertionError: assert 2 == 1";

// speky:speky-ts#TEST-RESULTS-CHECK
describe("speky check with test results", () => {
  it("is an error at the tag of each failed test, naming its test plan, the requirements it verifies and the failure", () => {
    const r = runSpeky(["check", "speky.yaml"], tree());
    expect(r.stdout).toBe(`${FAILED}\n1 error, 0 warnings in 4 files\n`);
    expect(r.status).toBe(1);
  });

  it("passes when the run passed, and --require-verified fails for each requirement not verified", () => {
    const dir = tree({ bad: false });
    expect(runSpeky(["check", "speky.yaml"], dir)).toMatchObject({ status: 0, stdout: "0 errors, 0 warnings in 4 files\n" });
    const r = runSpeky(["check", "speky.yaml", "--require-verified"], dir);
    expect(r.stdout).toBe(
      "specs/requirements.yaml:8:5: error: requirement R-MANUAL is not verified (unverified, 1 test plan; T-MANUAL manual)\n1 error, 0 warnings in 4 files\n",
    );
    expect(r.status).toBe(1);
  });

  it("reads --results relative to the working directory, added to the manifest's test_results", () => {
    const dir = tree({ testResults: false });
    writeTreeFile(dir, "out/junit.xml", pytestXml(true));
    expect(runSpeky(["check", "speky.yaml"], dir).status).toBe(0);
    const r = runSpeky(["check", path.join(dir, "speky.yaml"), "--results", "junit.xml", "--format", "json"], path.join(dir, "out"));
    const findings = (JSON.parse(r.stdout) as { findings: { file: string; line: number; message: string }[] }).findings;
    // Paths relative to the working directory, as every check finding's (out/ here).
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([
      "../tests/test_shop.py:11: test plan T-BAD (verifies R-BAD) failed: failure of test_bad[2] (junit.xml:5:70): AssertionError: assert 2 == 1",
    ]);
  });

  it("says so when a results glob matches no file, and --require-verified without results fails every requirement", () => {
    const dir = tree({ testResults: false });
    const r = runSpeky(["check", "speky.yaml", "--results", "reports/*.xml", "--require-verified"], dir);
    expect(r.stdout).toContain("reports/*.xml: warning: --results: 'reports/*.xml' matched no file\n");
    expect(r.stdout).toContain("error: requirement R-OK is not verified (unverified, 1 test plan; T-OK not run: test_ok not run)");
    const none = runSpeky(["check", "speky.yaml", "--require-verified"], dir);
    expect(none.stdout).toContain(
      "error: requirement R-OK is not verified (no test results are given (--results, or test_results in the manifest))",
    );
  });
});

// speky:speky-ts#TEST-RESULTS-REPORT
describe("speky report with test results", () => {
  it("shows a verification summary beside the coverage one, and each item's status", () => {
    const dir = tree();
    const r = runSpeky(["report", "speky.yaml", "--out", "site"], dir, { SOURCE_DATE_EPOCH: "0" });
    expect(r.status).toBe(0);
    const index = readFileSync(path.join(dir, "site/index.html"), "utf8");
    expect(index).toContain('<h2 id="verification">Verification</h2>');
    expect(index).toContain('the run of <time datetime="2026-03-04T05:06:07.000001">');
    expect(index).toContain("4 testcases read, 3 matched a tagged test, 1 matched none");
    expect(index).toMatch(
      /<tfoot><tr><th scope="row">All<\/th><td class="num">1<\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">3<\/td><\/tr><\/tfoot><\/table><\/div><\/section>/,
    );
    const pages = readdirSync(path.join(dir, "site/tests"))
      .map((f) => readFileSync(path.join(dir, "site/tests", f), "utf8"))
      .join("");
    expect(pages).toContain('<dt>Last run</dt><dd><span class="badge status-failed">Failed</span>');
    expect(pages).toContain(
      '<code>tests/test_shop.py:11</code> <code>test_bad</code> <span class="text">test_bad[2]: AssertionError: assert 2 == 1</span>',
    );
    const reqs = readdirSync(path.join(dir, "site/requirements"))
      .map((f) => readFileSync(path.join(dir, "site/requirements", f), "utf8"))
      .join("");
    expect(reqs).toContain('<dt>Verification</dt><dd><span class="badge status-failing">Failing</span></dd>');
    // Which of its test plans failed, on the requirement's own view.
    expect(reqs).toMatch(
      />T-BAD<\/a> <span class="badge automated_test_plan">Automated<\/span> <span class="badge status-failed">Failed<\/span><\/h4>/,
    );
  });

  it("adds the verification table to the Markdown summary", () => {
    const r = runSpeky(["report", "speky.yaml", "--format", "markdown"], tree(), { SOURCE_DATE_EPOCH: "0" });
    expect(r.stdout).toContain(
      [
        "### Verification",
        "",
        "From the run of 2026-03-04T05:06:07.000001 (1 results file; 4 testcases read, 3 matched a tagged test, 1 matched none).",
        "",
        "| Category | Failing | Unverified | Partially verified | Verified | Total |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        "| shop | 1 | 1 | 0 | 1 | 3 |",
        "| **All** | 1 | 1 | 0 | 1 | 3 |",
      ].join("\n"),
    );
  });

  it("is unchanged without results", () => {
    const without = runSpeky(["report", "speky.yaml", "--format", "markdown"], tree({ testResults: false }), { SOURCE_DATE_EPOCH: "0" });
    expect(without.stdout).not.toContain("Verification");
  });
});
