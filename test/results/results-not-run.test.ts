// Why a tagged test did not run (issue 49), on real runners' XML (fixtures/not-run/speky.yaml
// says how it was written): a Go package that failed to build, which gotestsum leaves out of its
// testcases; a pytest file never given to pytest; a test written after the run.
import { cpSync, readFileSync, rmSync, utimesSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, runSpeky, tempDir } from "../support/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function copy(): string {
  const dir = tempDir("speky-not-run-");
  dirs.push(dir);
  cpSync(path.join(REPO, "fixtures/not-run"), dir, { recursive: true });
  return dir;
}

describe("a test that did not run says why", () => {
  // speky:speky-ts#TRESULTS-NOT-RUN-WHY
  it("names the missing file, the package that did not build and results older than the test", () => {
    const dir = copy();
    const out = path.join(dir, "site");
    // test_added was written an hour after the run (a checkout gives every file the same time).
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(path.join(dir, "py/test_run.py"), later, later);
    const check = runSpeky(["check", "speky.yaml", "--require-verified"], dir);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(
      "TestBroken not run (no results file names go/broken/broken_test.go; go/results.xml counts 1 error that no testcase holds: did its package fail to build?)",
    );
    expect(check.stdout).toContain("test_never not run (no results file names py/test_never.py)");
    expect(check.stdout).toContain("test_added not run (results older than py/test_run.py: it changed after the run that read it)");
    // A Go failure to build says nothing of a Python file; a test that ran says nothing at all.
    expect(check.stdout).not.toMatch(/test_never not run \([^)]*build/);
    expect(check.stdout).not.toContain("TestOk");
    expect(runSpeky(["report", "speky.yaml", "--out", out], dir, { SOURCE_DATE_EPOCH: "0" }).status).toBe(0);
    expect(readFileSync(path.join(out, "tests/0001.html"), "utf8")).toContain("no results file names py/test_never.py");
  });

  it("says nothing of time when the test's file is not newer than the run (a fresh checkout)", () => {
    const dir = copy();
    const check = runSpeky(["check", "speky.yaml", "--require-verified"], dir);
    expect(check.stdout).toContain("test_added not run,");
    expect(check.stdout).not.toContain("results older than");
  });
});
