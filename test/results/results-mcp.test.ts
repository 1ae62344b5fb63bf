// speky-mcp with test results, through the SDK's client: the verification fields, the
// verification_status tool, failed tests in list_problems, a results file rewritten by a test
// run served at once; and without results, the tools and answers of before.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connect, type Session, TOOL_NAMES } from "../support/mcp.js";
import { pytestXml, resultsTree } from "../support/results-tree.js";

const dirs: string[] = [];
const tree = (options?: Parameters<typeof resultsTree>[0]) => {
  const dir = resultsTree(options);
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// speky:speky-ts#TEST-RESULTS-MCP
describe("speky-mcp with test results", () => {
  let session: Session;
  let dir: string;
  beforeAll(async () => {
    dir = tree();
    session = await connect(["--verbose", path.join(dir, "speky.yaml")], { cwd: dir });
  });
  afterAll(() => session.close());

  it("lists verification_status, with an output schema", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES, "verification_status"]);
    const tool = tools.find((t) => t.name === "verification_status")!;
    expect(Object.keys(tool.outputSchema!.properties!)).toEqual([
      "failing",
      "unverified",
      "partially_verified",
      "verified",
      "results",
      "unmatched_testcases",
      "nextCursor",
      "error",
      "did_you_mean",
    ]);
  });

  it("get_test tells each tagged test's result in the last run", async () => {
    const bad = await call(session.client, "get_test", { id: "T-BAD" });
    expect((bad.structured as { verification: unknown }).verification).toEqual({
      status: "failed",
      runs: [
        {
          file: "tests/test_shop.py",
          line: 11,
          symbol: "test_bad",
          status: "failed",
          time: 0.003,
          message: "test_bad[2]: AssertionError: assert 2 == 1",
        },
      ],
    });
    const manual = await call(session.client, "get_test", { id: "T-MANUAL" });
    expect((manual.structured as { verification: unknown }).verification).toEqual({ status: "manual", runs: [] });
  });

  it("get_requirement tells its status and its test plans by status", async () => {
    const r = await call(session.client, "get_requirement", { id: "R-BAD" });
    expect((r.structured as { verification: unknown }).verification).toEqual({
      status: "failing",
      passed: ["T-OK"],
      failed: ["T-BAD"],
      incomplete: [],
      not_run: [],
      manual: [],
    });
  });

  it("verification_status answers the four buckets and the results metadata", async () => {
    const r = await call(session.client, "verification_status");
    expect(r.structured).toEqual({
      failing: [{ id: "R-BAD", category: "shop" }],
      unverified: [{ id: "R-MANUAL", category: "shop" }],
      partially_verified: [],
      verified: [{ id: "R-OK", category: "shop" }],
      results: {
        files: [{ file: "reports/pytest.xml", timestamp: "2026-03-04T05:06:07.000001", testcases: 4 }],
        last_run: "2026-03-04T05:06:07.000001",
        testcases_read: 4,
        testcases_matched: 3,
        testcases_unmatched: 1,
      },
      unmatched_testcases: [{ file: "reports/pytest.xml", line: 8, classname: "tests.test_shop", name: "test_other" }],
    });
    const filtered = await call(session.client, "verification_status", { category: "nope" });
    expect(filtered).toEqual({ isError: true, structured: { error: "Category 'nope' not found" } });
  });

  it("list_problems lists the failed test", async () => {
    const r = await call(session.client, "list_problems");
    expect((r.structured as { problems: { message: string }[] }).problems.map((p) => p.message)).toEqual([
      "test plan T-BAD (verifies R-BAD) failed: failure of test_bad[2] (reports/pytest.xml:5:70): AssertionError: assert 2 == 1",
    ]);
  });

  // speky:speky-ts#TEST-RESULTS-LIVE
  it("serves the results of a test run that finishes, as a spec edit is served", async () => {
    writeFileSync(path.join(dir, "reports/pytest.xml"), pytestXml(false));
    let status = "";
    for (let i = 0; i < 200 && status !== "passed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const r = await call(session.client, "get_test", { id: "T-BAD" });
      status = (r.structured as { verification: { status: string } }).verification.status;
    }
    expect(status).toBe("passed");
    // Only the results were read again: no reload of the specs, no rescan.
    expect(session.stderr()).toContain("read the test results again: 1 file, 4 testcases");
    const r = await call(session.client, "verification_status");
    expect((r.structured as { verified: unknown[] }).verified).toHaveLength(2);
  });
});

describe("speky-mcp without test results", () => {
  let session: Session;
  beforeAll(async () => {
    const dir = tree({ testResults: false });
    session = await connect([path.join(dir, "speky.yaml")], { cwd: dir });
  });
  afterAll(() => session.close());

  it("lists the tools of before, their schemas without verification", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const name of ["get_test", "get_requirement"]) {
      expect(Object.keys(tools.find((t) => t.name === name)!.outputSchema!.properties!)).not.toContain("verification");
    }
  });

  it("answers get_test and get_requirement without a verification field", async () => {
    const t = await call(session.client, "get_test", { id: "T-BAD" });
    expect(Object.keys(t.structured as object)).toEqual(["id", "category", "long", "source_file", "ref", "steps", "code_references"]);
    const r = await call(session.client, "get_requirement", { id: "R-BAD" });
    expect(r.structured).not.toHaveProperty("verification");
  });
});
