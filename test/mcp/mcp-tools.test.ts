// Every tool of the MCP contract, called through the SDK client on the built server, with
// every filter and every error; whole structuredContent objects are compared.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connect, domainError, MCP_FIXTURE, ok, READ_ONLY, type Session, TOOL_NAMES } from "../support/mcp.js";
import { REPO } from "../support/process.js";

const expected = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "fixtures/mcp/expected", `${name}.json`), "utf8"));

const S = {
  "NF-SPEED": { id: "NF-SPEED", category: "non-functional", short: "Fast enough", tags: ["perf"] },
  "REQ-ALL": { id: "REQ-ALL", category: "functional", short: "Every field", tags: ["auth", "output:pdf"] },
  "REQ-BASE": { id: "REQ-BASE", category: "functional" },
  "REQ-LONELY": { id: "REQ-LONELY", category: "functional", short: "Nobody tests me", tags: ["output:pdf"] },
  "REQ-TAGGED": { id: "REQ-TAGGED", category: "functional", short: "Tagged and manual", tags: ["auth"] },
  "SUB-FN": { id: "SUB-FN", category: "functional" },
  "SUB-NF": { id: "SUB-NF", category: "non-functional", short: "Sub speed" },
};

const T = {
  "SUB-T1": { id: "SUB-T1", category: "integration", short: "Sub speed test" },
  "T-AUTO": { id: "T-AUTO", category: "functional", short: "Automated login" },
  "T-MANUAL": { id: "T-MANUAL", category: "functional" },
  "T-PERF": { id: "T-PERF", category: "non-functional", short: "Speed check" },
};

const ranked = (id: keyof typeof S, test_plans: number, automated_test_plans: number) => {
  const { tags: _tags, ...head } = S[id] as { tags?: string[] };
  return { ...head, test_plans, automated_test_plans };
};
const LEAST_TESTED_ALL = [
  ranked("REQ-LONELY", 0, 0),
  ranked("SUB-FN", 0, 0),
  ranked("REQ-TAGGED", 1, 0),
  ranked("NF-SPEED", 1, 1),
  ranked("REQ-BASE", 1, 1),
  ranked("SUB-NF", 1, 1),
  ranked("REQ-ALL", 2, 1),
];

let session: Session;
beforeAll(async () => {
  session = await connect([MCP_FIXTURE, "-C", "fixtures/mcp/extra/late.csv"]);
});
afterAll(async () => {
  await session?.close();
});

describe("tools/list", () => {
  it("lists the tools (speky's nine, then ours) with title, description, schemas and read-only annotations", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.annotations).toEqual(READ_ONLY);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("get_requirement")!.inputSchema.required).toEqual(["id"]);
    expect(byName.get("search_requirements")!.inputSchema.required).toBeUndefined();
    expect(Object.keys(byName.get("least_tested_requirements")!.inputSchema.properties!)).toEqual([
      "tag",
      "category",
      "count",
      "limit",
      "cursor",
    ]);
  });
});

describe("get_requirement", () => {
  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("returns every field of a requirement that has them all, code references with urls", async () => {
    expect(await ok(session.client, "get_requirement", { id: "REQ-ALL" })).toEqual(expected("get_requirement.REQ-ALL"));
  });

  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("omits absent fields and lists referencing requirements and symbol references", async () => {
    expect(await ok(session.client, "get_requirement", { id: "REQ-BASE" })).toEqual(expected("get_requirement.REQ-BASE"));
  });

  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("gives free references a null symbol", async () => {
    expect(await ok(session.client, "get_requirement", { id: "REQ-TAGGED" })).toEqual(expected("get_requirement.REQ-TAGGED"));
    expect(await ok(session.client, "get_requirement", { id: "NF-SPEED" })).toEqual(expected("get_requirement.NF-SPEED"));
  });

  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("serves a sub-project's requirement with paths relative to its root and no url", async () => {
    expect(await ok(session.client, "get_requirement", { id: "SUB-NF" })).toEqual(expected("get_requirement.SUB-NF"));
  });

  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("returns only the four mandatory fields for a bare requirement", async () => {
    expect(await ok(session.client, "get_requirement", { id: "SUB-FN" })).toEqual({
      id: "SUB-FN",
      category: "functional",
      long: "Functional, but the sub-project reports coverage of non-functional requirements only.",
      source_file: "functional.yaml",
    });
  });

  // speky:speky-ts#TMCP-GET-REQUIREMENT
  it("answers unknown IDs and test IDs with the contract's errors", async () => {
    expect(await domainError(session.client, "get_requirement", { id: "NOPE" })).toBe("Requirement NOPE not found");
    expect(await domainError(session.client, "get_requirement", { id: "T-AUTO" })).toBe("T-AUTO is a test, not a requirement");
    expect(await domainError(session.client, "get_requirement", { id: "req-all" })).toBe("Requirement req-all not found");
  });
});

describe("get_test", () => {
  // speky:speky-ts#TMCP-GET-TEST
  it("returns every field of a test, steps as written, automated code references", async () => {
    expect(await ok(session.client, "get_test", { id: "T-AUTO" })).toEqual(expected("get_test.T-AUTO"));
  });

  // speky:speky-ts#TMCP-GET-TEST
  it("carries comments from a -C file and is_test false for a tagged helper", async () => {
    expect(await ok(session.client, "get_test", { id: "T-MANUAL" })).toEqual(expected("get_test.T-MANUAL"));
  });

  // speky:speky-ts#TMCP-GET-TEST
  it("qualifies a Rust test by its module and serves a sub-project's test", async () => {
    expect(await ok(session.client, "get_test", { id: "T-PERF" })).toEqual(expected("get_test.T-PERF"));
    expect(await ok(session.client, "get_test", { id: "SUB-T1" })).toEqual(expected("get_test.SUB-T1"));
  });

  // speky:speky-ts#TMCP-GET-TEST
  it("answers unknown IDs and requirement IDs with the contract's errors", async () => {
    expect(await domainError(session.client, "get_test", { id: "NOPE" })).toBe("Test NOPE not found");
    expect(await domainError(session.client, "get_test", { id: "REQ-ALL" })).toBe("REQ-ALL is a requirement, not a test");
  });
});

describe("search_requirements", () => {
  const search = async (args: Record<string, unknown>) => ok(session.client, "search_requirements", args);

  // speky:speky-ts#TMCP-SEARCH-REQUIREMENTS
  it("returns every requirement, sorted by ID, without filters", async () => {
    expect(await search({})).toEqual({ requirements: Object.values(S) });
  });

  // speky:speky-ts#TMCP-SEARCH-REQUIREMENTS
  it("filters by tag, namespaced tag, category and both", async () => {
    expect(await search({ tag: "auth" })).toEqual({ requirements: [S["REQ-ALL"], S["REQ-TAGGED"]] });
    expect(await search({ tag: "output:pdf" })).toEqual({ requirements: [S["REQ-ALL"], S["REQ-LONELY"]] });
    expect(await search({ category: "non-functional" })).toEqual({ requirements: [S["NF-SPEED"], S["SUB-NF"]] });
    expect(await search({ tag: "perf", category: "non-functional" })).toEqual({ requirements: [S["NF-SPEED"]] });
    expect(await search({ tag: "output:pdf", category: "functional" })).toEqual({
      requirements: [S["REQ-ALL"], S["REQ-LONELY"]],
    });
    expect(await search({ tag: "auth", category: "non-functional" })).toEqual({ requirements: [] });
  });

  // speky:speky-ts#TMCP-SEARCH-REQUIREMENTS
  it("treats empty filters as absent, as speky does", async () => {
    expect(await search({ tag: "", category: "" })).toEqual({ requirements: Object.values(S) });
  });

  // speky:speky-ts#TMCP-SEARCH-REQUIREMENTS
  it("names an unknown tag or category in single quotes", async () => {
    expect(await domainError(session.client, "search_requirements", { tag: "output" })).toBe("Tag 'output' not found");
    expect(await domainError(session.client, "search_requirements", { category: "integration" })).toBe("Category 'integration' not found");
    expect(await domainError(session.client, "search_requirements", { tag: "x", category: "y" })).toBe("Tag 'x' not found");
  });
});

describe("search_tests", () => {
  const search = async (args: Record<string, unknown>) => ok(session.client, "search_tests", args);

  it("returns every test sorted by ID, and filters by category, tester_of and both", async () => {
    expect(await search({})).toEqual({ tests: Object.values(T) });
    expect(await search({ category: "functional" })).toEqual({ tests: [T["T-AUTO"], T["T-MANUAL"]] });
    expect(await search({ tester_of: "REQ-ALL" })).toEqual({ tests: [T["T-AUTO"], T["T-MANUAL"]] });
    expect(await search({ tester_of: "NF-SPEED", category: "non-functional" })).toEqual({ tests: [T["T-PERF"]] });
    expect(await search({ tester_of: "REQ-ALL", category: "non-functional" })).toEqual({ tests: [] });
    expect(await search({ tester_of: "REQ-LONELY" })).toEqual({ tests: [] });
  });

  it("answers an unknown category or requirement with the contract's errors", async () => {
    expect(await domainError(session.client, "search_tests", { category: "perf" })).toBe("Category 'perf' not found");
    expect(await domainError(session.client, "search_tests", { tester_of: "NOPE" })).toBe("Requirement 'NOPE' not found");
  });
});

describe("list_references_to", () => {
  it("lists the requirements whose ref names an ID, as sorted summaries", async () => {
    const refs = async (id: string) => ok(session.client, "list_references_to", { id });
    expect(await refs("REQ-BASE")).toEqual({ requirements: [S["REQ-ALL"], S["REQ-TAGGED"]] });
    expect(await refs("REQ-ALL")).toEqual({ requirements: [S["REQ-LONELY"]] });
    expect(await refs("NF-SPEED")).toEqual({ requirements: [S["REQ-ALL"]] });
    expect(await refs("REQ-LONELY")).toEqual({ requirements: [] });
    expect(await refs("T-AUTO")).toEqual({ requirements: [] });
  });

  it("answers an unknown ID with the contract's error", async () => {
    expect(await domainError(session.client, "list_references_to", { id: "NOPE" })).toBe("Requirement NOPE not found");
  });
});

describe("test_plan_coverage", () => {
  it("covers each manifest's coverage_categories over that manifest's requirements only", async () => {
    expect(await ok(session.client, "test_plan_coverage")).toEqual({
      no_test_plan: [S["REQ-LONELY"]],
      manual_test_plan: [S["REQ-TAGGED"]],
      partially_manual_test_plan: [S["REQ-ALL"]],
      automated_test_plan: [S["REQ-BASE"], S["SUB-NF"]],
    });
  });

  // speky:speky-ts#TNAV-COVERAGE-SCOPE
  it("selects an asked category within each manifest's coverage_categories", async () => {
    // The sub-project lists only non-functional: its functional SUB-FN is never counted.
    expect(await ok(session.client, "test_plan_coverage", { category: "functional" })).toEqual({
      no_test_plan: [S["REQ-LONELY"]],
      manual_test_plan: [S["REQ-TAGGED"]],
      partially_manual_test_plan: [S["REQ-ALL"]],
      automated_test_plan: [S["REQ-BASE"]],
    });
    // The top project lists only functional: its non-functional NF-SPEED is never counted.
    expect(await ok(session.client, "test_plan_coverage", { category: "non-functional" })).toEqual({
      no_test_plan: [],
      manual_test_plan: [],
      partially_manual_test_plan: [],
      automated_test_plan: [S["SUB-NF"]],
    });
  });

  it("answers an unknown category with the contract's error", async () => {
    expect(await domainError(session.client, "test_plan_coverage", { category: "nope" })).toBe("Category 'nope' not found");
  });
});

describe("least_tested_requirements", () => {
  const least = async (args: Record<string, unknown>) => ok(session.client, "least_tested_requirements", args);

  it("ranks by test plans, then automated test plans, then ID", async () => {
    expect(await least({})).toEqual({ requirements: LEAST_TESTED_ALL });
  });

  it("keeps the first count, ignoring counts that are not positive integers", async () => {
    expect(await least({ count: 2 })).toEqual({ requirements: LEAST_TESTED_ALL.slice(0, 2) });
    for (const count of [0, -1, 2.5, 9999]) {
      expect(await least({ count })).toEqual({ requirements: LEAST_TESTED_ALL });
    }
  });

  it("filters by tag, category and both, combined with count", async () => {
    expect(await least({ tag: "auth" })).toEqual({
      requirements: [ranked("REQ-TAGGED", 1, 0), ranked("REQ-ALL", 2, 1)],
    });
    expect(await least({ category: "non-functional" })).toEqual({
      requirements: [ranked("NF-SPEED", 1, 1), ranked("SUB-NF", 1, 1)],
    });
    expect(await least({ tag: "output:pdf", category: "functional", count: 1 })).toEqual({
      requirements: [ranked("REQ-LONELY", 0, 0)],
    });
  });

  it("answers an unknown tag or category as search_requirements does", async () => {
    expect(await domainError(session.client, "least_tested_requirements", { tag: "nope" })).toBe("Tag 'nope' not found");
    expect(await domainError(session.client, "least_tested_requirements", { category: "nope" })).toBe("Category 'nope' not found");
  });
});

describe("list_all_tags and list_all_ids", () => {
  it("lists whole tags, sorted", async () => {
    expect(await ok(session.client, "list_all_tags")).toEqual({ tags: ["auth", "output:pdf", "perf"] });
  });

  it("lists requirement and test IDs, each sorted", async () => {
    expect(await ok(session.client, "list_all_ids")).toEqual({ requirements: Object.keys(S), tests: Object.keys(T) });
  });
});

describe("wrong argument types", () => {
  // speky:speky-ts#TMCP-PROTOCOL
  it("answers them as isError results and keeps serving", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["get_requirement", { id: 42 }],
      ["get_requirement", {}],
      ["get_test", { id: null }],
      ["search_requirements", { tag: ["auth"] }],
      ["least_tested_requirements", { count: "3" }],
      ["search_tests", { tester_of: { id: "REQ-ALL" } }],
    ];
    for (const [name, args] of cases) {
      const result = await session.client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0].text).toMatch(/Input validation error: Invalid arguments for tool /);
    }
    expect((await call(session.client, "list_all_tags")).isError).toBe(false);
  });
});

describe("without a manifest", () => {
  it("reports coverage over every requirement and displays paths as given", async () => {
    const loose = await connect(["fixtures/mcp/loose/loose.yaml", "fixtures/mcp/loose/loose-tests.yaml"]);
    try {
      expect(await ok(loose.client, "test_plan_coverage")).toEqual({
        no_test_plan: [{ id: "LOOSE-1", category: "functional", short: "Given directly" }],
        manual_test_plan: [{ id: "LOOSE-2", category: "functional" }],
        partially_manual_test_plan: [],
        automated_test_plan: [],
      });
      // speky:speky-ts#TNAV-COVERAGE-SCOPE
      // No manifest declares coverage_categories: an asked category counts every requirement of it.
      expect(await ok(loose.client, "test_plan_coverage", { category: "functional" })).toEqual(
        await ok(loose.client, "test_plan_coverage"),
      );
      expect(await ok(loose.client, "get_requirement", { id: "LOOSE-2" })).toEqual({
        id: "LOOSE-2",
        category: "functional",
        long: "Tested by hand.",
        source_file: "fixtures/mcp/loose/loose.yaml",
        tested_by: [{ id: "LOOSE-T" }],
      });
      expect(await ok(loose.client, "list_all_tags")).toEqual({ tags: [] });
    } finally {
      await loose.close();
    }
  });
});
