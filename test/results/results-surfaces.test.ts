// Where a failed test shows (issue 49): `speky check`'s error at the code reference, naming the
// test as its runner does and its place in the results file; --require-verified naming what
// failed or did not run; the report's Problems page and Markdown summary listing the failed
// tests; each status's run time from its own results file; a spec error in one project of a
// monorepo never hiding another's failed tests. On the runners' real XML of fixtures/results/.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, runSpeky, tempDir } from "../support/process.js";

const FIXTURES = path.join(REPO, "fixtures");
const PYTEST_XML = readFileSync(path.join(FIXTURES, "results/pytest/results.xml"), "utf8");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The testcase start tag holding the place line:column of an XML text, or "". */
function testcaseAt(xml: string, line: number, column: number): string {
  const text = xml.split("\n")[line - 1] ?? "";
  const start = text.lastIndexOf("<testcase", column - 1);
  return start < 0 ? "" : text.slice(start, column);
}

interface ScanRef {
  id: string;
  file: string;
  line: number;
  column: number;
}

describe("speky check on the runners' real results", () => {
  // speky:speky-ts#TRESULTS-FAILED-AT-REFERENCE
  it("puts a failed test at its code reference as speky scan reports it, named as the runner names it, its results file relative to the current folder", () => {
    const scanned = runSpeky(["scan", "fixtures/results/speky.yaml"]);
    const refs = (JSON.parse(scanned.stdout) as { references: ScanRef[] }).references;
    const at = (id: string) => refs.find((r) => r.id === id)!;
    const run = runSpeky(["check", "results/speky.yaml"], FIXTURES);
    expect(run.status).toBe(1);
    const lines = run.stdout.split("\n");
    const line = (id: string) => lines.find((l) => l.includes(`test plan ${id} `)) ?? "";
    const fail = at("PY-FAIL");
    expect(line("PY-FAIL")).toMatch(new RegExp(`^results/${fail.file}:${fail.line}:${fail.column}: error: test plan PY-FAIL `));
    const param = at("PY-PARAM-FAIL");
    expect(line("PY-PARAM-FAIL")).toMatch(new RegExp(`^results/${param.file}:${param.line}:${param.column}: `));
    // The class as pytest names it, and the results file from the current folder (not the manifest's).
    expect(line("PY-PARAM-FAIL")).toContain("failure of TestBasket.test_fits[huge] (results/pytest/results.xml:");
    expect(line("JAVA-FAIL")).toContain("failure of BasketTest.total() (results/junit5/reports/TEST-junit-jupiter.xml:");
    // pytest writes its testcases on one line: line and column point at the testcase itself.
    const place = /\(results\/pytest\/results\.xml:(\d+):(\d+)\)/.exec(line("PY-FAIL"));
    expect(place).not.toBeNull();
    expect(testcaseAt(PYTEST_XML, Number(place![1]), Number(place![2]))).toContain('name="test_total"');
  });

  // speky:speky-ts#TRESULTS-REQUIRE-NAMES
  it("--require-verified names the test plans and the tests that failed or did not run", () => {
    const run = runSpeky(["check", "results/speky.yaml", "--require-verified"], FIXTURES);
    const lines = run.stdout.split("\n");
    const req = (id: string) => lines.find((l) => l.includes(`requirement ${id} is not verified`)) ?? "";
    expect(req("PY-RED")).toContain("PY-FAIL failed: test_total failed");
    expect(req("PY-RED")).toContain("PY-PARAM-FAIL failed: TestBasket.test_fits failed");
    expect(req("ST-NOT-RUN")).toContain("PY-NOT-RUN not run: test_slow not run");
  });
});

describe("speky report on the runners' real results", () => {
  // speky:speky-ts#TREPORT-FAILED-TESTS
  it("lists every failed test on the Problems page and in the Markdown summary, as check does", () => {
    const check = runSpeky(["check", "fixtures/results/speky.yaml"]);
    const errors = check.stdout.split("\n").filter((l) => l.includes(": error: test plan "));
    expect(errors.length).toBeGreaterThan(10);
    const md = runSpeky(["report", "fixtures/results/speky.yaml", "--format", "markdown"], REPO, { SOURCE_DATE_EPOCH: "0" });
    expect(md.stdout).toContain(`### Problems (${errors.length})`);
    expect(md.stdout).toContain("failure of TestBasket.test_fits\\[huge\\]");
    expect(md.stdout).toMatch(/\| \d+ \| \d+ \| \d+ \| [1-9]\d* \|/);
    const out = tempDir("speky-surfaces-report-");
    dirs.push(out);
    expect(runSpeky(["report", "fixtures/results/speky.yaml", "--out", out], REPO, { SOURCE_DATE_EPOCH: "0" }).status).toBe(0);
    const problems = readFileSync(path.join(out, "problems.html"), "utf8");
    expect(problems).toContain(`${errors.length} problems`);
    expect(problems).toContain(`Failed tests (${errors.length})`);
    expect(problems).toContain("failure of TestBasket.test_fits[huge]");
    // speky:speky-ts#TRESULTS-STATUS-TIME
    // PY-FAIL's status came from pytest's run: its time, not the newest results file's.
    const pytestTime = /timestamp="([^"]+)"/.exec(PYTEST_XML)![1];
    const tests = readFileSync(path.join(out, "tests/0001.html"), "utf8");
    const section = tests.slice(tests.indexOf('id="PY-FAIL"'));
    expect(/<dt>Last run<\/dt><dd><span[^>]*>[^<]*<\/span> <time datetime="([^"]+)"/.exec(section)?.[1]).toBe(pytestTime);
  });
});

describe("speky check in a monorepo with a spec error", () => {
  // speky:speky-ts#TCHECK-FAILED-DESPITE-ERRORS
  it("still lists the failed tests of the project that loaded", () => {
    const dir = tempDir("speky-surfaces-mono-");
    dirs.push(dir);
    mkdirSync(path.join(dir, "shop/specs"), { recursive: true });
    mkdirSync(path.join(dir, "cart/specs"), { recursive: true });
    cpSync(path.join(FIXTURES, "results/pytest"), path.join(dir, "shop/pytest"), { recursive: true });
    cpSync(path.join(FIXTURES, "results/specs"), path.join(dir, "shop/specs"), { recursive: true });
    writeFileSync(
      path.join(dir, "shop/speky.yaml"),
      "kind: project\nname: vr\nfiles: [specs/*.yaml]\ncode_sources: [pytest/*.py]\ntest_results: [pytest/results.xml]\n",
    );
    writeFileSync(path.join(dir, "cart/speky.yaml"), "kind: project\nname: cart\nfiles: [specs/*.yaml]\n");
    writeFileSync(
      path.join(dir, "cart/specs/reqs.yaml"),
      "kind: requirements\ncategory: c\nrequirements:\n  - id: C-1\n    long: Two: bad\n",
    );
    const run = runSpeky(["check", "shop/speky.yaml", "cart/speky.yaml"], dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("cart/specs/reqs.yaml:5:11: error: YAML syntax error");
    expect(run.stdout).toMatch(
      /shop\/pytest\/test_basket\.py:\d+:\d+: error: test plan PY-FAIL \(verifies PY-RED\) failed: failure of test_total \(shop\/pytest\/results\.xml:1:\d+\)/,
    );
  });
});
