// Errors a user meets on a real tree: an empty filter, a tag or category spelt another way, a
// file that is not there, the server started from another folder. Each keeps speky's exact
// text where speky has one, and says what was likely meant as a field of its own.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connect, MCP_MAIN, ok, type Session } from "../support/mcp.js";

let session: Session;
beforeAll(async () => {
  session = await connect();
});
afterAll(async () => {
  await session.close();
});

const failure = async (tool: string, args: Record<string, unknown>) => {
  const answer = await call(session.client, tool, args);
  expect(answer.isError).toBe(true);
  return answer.structured;
};

describe("an empty filter", () => {
  // speky:speky-ts#TMCP-EMPTY-FILTER
  it("is no filter in test_plan_coverage, as in every other tool and in speky", async () => {
    expect(await ok(session.client, "test_plan_coverage", { category: "" })).toEqual(await ok(session.client, "test_plan_coverage"));
    expect(await ok(session.client, "search_requirements", { tag: "", category: "" })).toEqual(
      await ok(session.client, "search_requirements"),
    );
    expect(await ok(session.client, "search_tests", { category: "", tester_of: "" })).toEqual(await ok(session.client, "search_tests"));
    expect(await ok(session.client, "least_tested_requirements", { tag: "", category: "" })).toEqual(
      await ok(session.client, "least_tested_requirements"),
    );
  });
});

describe("did you mean", () => {
  // speky:speky-ts#TMCP-DID-YOU-MEAN
  it("keeps the exact error text and adds the closest tag, category or ID as did_you_mean", async () => {
    expect(await failure("search_requirements", { tag: "AUTH" })).toEqual({ error: "Tag 'AUTH' not found", did_you_mean: "auth" });
    expect(await failure("least_tested_requirements", { tag: "output:pfd" })).toEqual({
      error: "Tag 'output:pfd' not found",
      did_you_mean: "output:pdf",
    });
    expect(await failure("search_requirements", { category: "functionnal" })).toEqual({
      error: "Category 'functionnal' not found",
      did_you_mean: "functional",
    });
    expect(await failure("test_plan_coverage", { category: "Functional" })).toEqual({
      error: "Category 'Functional' not found",
      did_you_mean: "functional",
    });
    expect(await failure("search_tests", { category: "integratoin" })).toEqual({
      error: "Category 'integratoin' not found",
      did_you_mean: "integration",
    });
    expect(await failure("get_requirement", { id: "REQ-BASF" })).toEqual({
      error: "Requirement REQ-BASF not found",
      did_you_mean: "REQ-BASE",
    });
    expect(await failure("search_tests", { tester_of: "req-all" })).toEqual({
      error: "Requirement 'req-all' not found",
      did_you_mean: "REQ-ALL",
    });
  });

  // speky:speky-ts#TMCP-DID-YOU-MEAN
  it("leaves the field out when nothing is close", async () => {
    expect(await failure("search_requirements", { tag: "security" })).toEqual({ error: "Tag 'security' not found" });
    expect(await failure("get_test", { id: "NOPE" })).toEqual({ error: "Test NOPE not found" });
    expect(await failure("test_plan_coverage", { category: "x".repeat(10_000) })).not.toHaveProperty("did_you_mean");
  });
});

describe("find_code_references on a file", () => {
  // speky:speky-ts#TMCP-FILE-NOT-FOUND
  it("says a file that does not exist is not found, with the tagged file likely meant", async () => {
    expect(await failure("find_code_references", { file: "src/auth.pyy" })).toEqual({
      error: "File 'src/auth.pyy' not found",
      did_you_mean: "src/auth.py",
    });
    expect(await failure("find_code_references", { file: "no/such/file.rs", line: 3 })).toEqual({
      error: "File 'no/such/file.rs' not found",
    });
  });

  // speky:speky-ts#TMCP-FILE-NOT-FOUND
  it("answers [] for a file that exists without tags, and the tags of a file that has them", async () => {
    expect(await ok(session.client, "find_code_references", { file: "specs/tests.yaml" })).toEqual({ references: [] });
    const tagged = (await ok(session.client, "find_code_references", { file: "src/auth.py" })) as { references: unknown[] };
    expect(tagged.references.length).toBeGreaterThan(0);
  });
});

describe("started from another folder", () => {
  // speky:speky-ts#TMCP-START-FOLDER
  it("names the folder it looked in and says how to fix the configuration", () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), "speky-mcp-elsewhere-"));
    try {
      const run = spawnSync(process.execPath, [MCP_MAIN, "speky.yaml"], { cwd: elsewhere, encoding: "utf8", input: "" });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`speky.yaml: error: file not found in ${elsewhere}`);
      expect(run.stderr).toMatch(/absolute path|cwd/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
