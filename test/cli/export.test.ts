// `speky export`: the whole model as one JSON document, valid against schema/export.schema.json,
// the same bytes on every run and every machine, written only where asked.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { connect, ok } from "../support/mcp.js";
import { gitTree } from "../support/myst.js";
import { REPO, runSpeky, tempDir } from "../support/process.js";

const schema = JSON.parse(readFileSync(path.join(REPO, "schema/export.schema.json"), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

describe("speky export", () => {
  // speky:speky-ts#TEXPORT-SCHEMA
  it("writes the whole model, valid against its schema", () => {
    const dir = gitTree("shop");
    const run = runSpeky(["export", "speky.yaml", "--no-cache"], dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.manifests.map((m: { name: string }) => m.name)).toEqual(["shop", "billing_ops", "Tools"]);
    expect(doc.requirements).toHaveLength(18);
    expect(doc.tests).toHaveLength(9);
    expect(doc.comments).toHaveLength(7);
    const core3 = doc.requirements.find((r: { id: string }) => r.id === "CORE-3");
    expect(core3).toMatchObject({
      category: "core",
      tags: ["ui", "mcp:tools", "data_model"],
      ref: ["CORE-1", "API-2"],
      tested_by: ["T-API-1", "T-CART-1", "U-CART"],
      referenced_by: ["API-1"],
      coverage: "partially_manual_test_plan",
      source_file: "specs/core.yaml",
      project: "shop",
      location: { file: "specs/core.yaml", line: 4, column: 5 },
    });
    const total = doc.code_references.find((r: { symbol: string; id: string }) => r.symbol === "Cart.total" && r.id === "CORE-10");
    expect(total).toMatchObject({ file: "src/shop/cart.py", line: 18, start_line: 17, tag_line: 16, kind: "method", language: "python" });
    expect(total.url).toBe("https://example.invalid/org/shop/blob/main/src/shop/cart.py#L18");
    expect(doc.dangling_references.map((r: { id: string }) => r.id)).toEqual(["NOPE-1"]);
    expect(doc.problems.find((p: { severity: string }) => p.severity === "error").message).toContain("NOPE-1");
    expect(doc.coverage.requirements).toBe(17);
    // Our is_test rules: the Go helper that speky's pages count as a test (by its file's name) is none here.
    expect(doc.coverage.automated_test_plan).toEqual(["L-1"]);
    expect(doc.coverage.manual_test_plan).toContain("CORE-2");
    expect(doc.tests.find((t: { id: string }) => t.id === "U-CART").automated).toBe(true);
    expect(doc).not.toHaveProperty("verification");
    expect(run.stdout).not.toContain(dir);
  });

  // speky:speky-ts#TRESULTS-EXPORT
  it("adds the verification of every test plan and requirement when results are given, as the MCP answers say it", async () => {
    const run = runSpeky(["export", "fixtures/results/speky.yaml", "--no-cache"], REPO);
    expect(run.stderr).toBe("");
    const doc = JSON.parse(run.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const { verification } = doc;
    expect(verification.results).toMatchObject({ testcases_read: 145, testcases_matched: 133, testcases_unmatched: 12 });
    expect(verification.results.files).toHaveLength(16);
    expect(Object.keys(verification.tests).sort()).toEqual(doc.tests.map((t: { id: string }) => t.id).sort());
    expect(Object.keys(verification.requirements).sort()).toEqual(doc.requirements.map((r: { id: string }) => r.id).sort());
    // The same words as get_test and get_requirement for the same IDs.
    const session = await connect(["fixtures/results/speky.yaml", "--no-watch"]);
    try {
      for (const id of Object.keys(verification.tests).slice(0, 5)) {
        const answer = (await ok(session.client, "get_test", { id })) as { verification: unknown };
        expect(answer.verification, id).toEqual(verification.tests[id]);
      }
      for (const id of Object.keys(verification.requirements).slice(0, 5)) {
        const answer = (await ok(session.client, "get_requirement", { id })) as { verification: unknown };
        expect(answer.verification, id).toEqual(verification.requirements[id]);
      }
    } finally {
      await session.close();
    }
  });

  // speky:speky-ts#TEXPORT-DETERMINISTIC
  it("gives the same bytes on every run, in any folder, on stdout and with --out", () => {
    const [a, b] = [gitTree("shop"), gitTree("shop")];
    const first = runSpeky(["export", "speky.yaml"], a).stdout;
    expect(runSpeky(["export", "--no-cache"], b).stdout).toBe(first);
    expect(runSpeky(["export", "speky.yaml", "--out", "model.json"], a).status).toBe(0);
    expect(readFileSync(path.join(a, "model.json"), "utf8")).toBe(first);
  });

  it("declares the verification hook optional and the rest required", () => {
    const dir = gitTree("shop");
    const doc = JSON.parse(runSpeky(["export"], dir).stdout);
    const verification = {
      results: {
        files: [{ file: "junit.xml", timestamp: "2026-12-01T14:02:00Z", testcases: 3 }],
        last_run: "2026-12-01T14:02:00Z",
        testcases_read: 3,
        testcases_matched: 2,
        testcases_unmatched: 1,
      },
      tests: { "U-CART": { status: "passed", runs: [{ file: "src/tests/test_cart.py", line: 5, symbol: "test_add", status: "passed" }] } },
      requirements: {
        "CORE-3": { status: "partially_verified", passed: ["U-CART"], failed: [], incomplete: [], not_run: [], manual: ["T-API-1"] },
      },
    };
    expect(validate({ ...doc, verification })).toBe(true);
    expect(validate({ ...doc, verification: { tests: {} } })).toBe(false);
    // Every member is what the answers carry, nothing else: a status outside the contract fails.
    expect(validate({ ...doc, verification: { ...verification, tests: { X: { status: "green", runs: [] } } } })).toBe(false);
    const { coverage: _, ...withoutCoverage } = doc;
    expect(validate(withoutCoverage)).toBe(false);
  });

  it("replaces a link planted at --out, never its target, and writes nothing for invalid specs", () => {
    const dir = gitTree("shop");
    const target = path.join(tempDir(), "victim.txt");
    writeFileSync(target, "keep me\n");
    symlinkSync(target, path.join(dir, "model.json"));
    expect(runSpeky(["export", "--out", "model.json"], dir).status).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
    expect(JSON.parse(readFileSync(path.join(dir, "model.json"), "utf8")).version).toBe(1);

    const bad = gitTree("invalid");
    const run = runSpeky(["export", "valid.yaml", "missing-long.yaml", "--out", "model.json"], bad);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("missing-long.yaml:4:");
    expect(existsSync(path.join(bad, "model.json"))).toBe(false);
    const none = runSpeky(["export"], tempDir());
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("no ./speky.yaml, and no manifest (kind: project) under this folder");
  });
});
