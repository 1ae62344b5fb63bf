// Issue 12, defect 9: answers do not grow with the project. On 100,000 requirements and 10,000
// tests (the issue measured 250,000: docs/security.md), resources/list is paged with MCP cursors
// and the list tools answer a bounded first page with nextCursor; following the cursors gives
// every item exactly once. The server is the real binary, its peak memory measured.
import { describe, expect, it } from "vitest";
import { MANY, PROBLEMS, rid, serveBigProject } from "../support/big-project.js";

const REQUIREMENTS = 100_000;
const TESTS = 10_000;
/** 1 MiB of items, in structuredContent and once more in the text block, and the envelope. */
const MAX_ANSWER_CHARS = 2.5 * 1024 * 1024;

const server = serveBigProject(REQUIREMENTS, TESTS);

describe("on 100,000 requirements", () => {
  // speky:speky-ts#TSEC-ANSWER-BOUNDS
  it("pages resources/list: bounded pages whose cursors give every resource once", async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await server().client.listResources(cursor === undefined ? {} : { cursor });
      expect(JSON.stringify(page).length).toBeLessThan(MAX_ANSWER_CHARS);
      for (const r of page.resources) seen.add(r.uri);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 1000);
    expect(seen.size).toBe(REQUIREMENTS + TESTS);
    expect(pages).toBe(Math.ceil((REQUIREMENTS + TESTS) / 1000));
    await expect(server().client.listResources({ cursor: "bm9wZQ" })).rejects.toThrow(/Invalid cursor/);
  });

  it("answers each list tool with a bounded first page and a nextCursor", async () => {
    for (const name of ["search_requirements", "test_plan_coverage", "least_tested_requirements", "list_all_ids", "search_tests"]) {
      const answer = await server().client.callTool({ name, arguments: {} }, undefined, { timeout: 120_000 });
      expect(JSON.stringify(answer).length, name).toBeLessThan(MAX_ANSWER_CHARS);
      expect((answer.structuredContent as { nextCursor?: string }).nextCursor, name).toEqual(expect.any(String));
    }
    // Small lists stay whole, as speky answers them.
    const tags = await server().client.callTool({ name: "list_all_tags", arguments: {} });
    expect((tags.structuredContent as { tags: string[] }).tags).toHaveLength(50);
    expect(tags.structuredContent).not.toHaveProperty("nextCursor");
  });

  it("follows every list tool's cursors with a small and a huge limit, each page bounded", async () => {
    const lists: Record<string, string[]> = {
      search_requirements: ["requirements"],
      test_plan_coverage: ["no_test_plan", "manual_test_plan", "partially_manual_test_plan", "automated_test_plan"],
      least_tested_requirements: ["requirements"],
      list_all_ids: ["requirements", "tests"],
      search_tests: ["tests"],
      search_text: ["results"],
    };
    const totals: Record<string, number> = {
      search_requirements: REQUIREMENTS,
      test_plan_coverage: REQUIREMENTS,
      least_tested_requirements: REQUIREMENTS,
      list_all_ids: REQUIREMENTS + TESTS,
      search_tests: TESTS,
      search_text: REQUIREMENTS + TESTS,
    };
    for (const [name, fields] of Object.entries(lists)) {
      const args = name === "search_text" ? { query: "requirement number check" } : {};
      for (const limit of [2000, 1e9]) {
        let cursor: string | undefined;
        let items = 0;
        for (let pages = 0; pages < 1000; pages++) {
          const answer = await server().client.callTool(
            { name, arguments: { ...args, limit, ...(cursor === undefined ? {} : { cursor }) } },
            undefined,
            { timeout: 120_000 },
          );
          expect(JSON.stringify(answer).length, name).toBeLessThan(MAX_ANSWER_CHARS);
          const page = answer.structuredContent as Record<string, unknown[]> & { nextCursor?: string };
          for (const field of fields) items += page[field].length;
          cursor = page.nextCursor;
          if (cursor === undefined) break;
        }
        expect(items, `${name} limit ${limit}`).toBe(totals[name]);
      }
    }
  }, 300_000);

  it("gives every requirement once through search_requirements' cursors", async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const answer = await server().client.callTool(
        { name: "search_requirements", arguments: cursor === undefined ? {} : { cursor } },
        undefined,
        { timeout: 120_000 },
      );
      const page = answer.structuredContent as { requirements: { id: string }[]; nextCursor?: string };
      ids.push(...page.requirements.map((r) => r.id));
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    expect(ids).toHaveLength(REQUIREMENTS);
    expect(new Set(ids).size).toBe(REQUIREMENTS);
    expect(ids[0]).toBe(rid(0));
    expect(ids[ids.length - 1]).toBe(rid(REQUIREMENTS - 1));
  });

  // speky:speky-ts#TMEM-DETAILS-PAGED
  it("pages an item's code references and get_status's problems, and its resource gives the first page", async () => {
    const options = { timeout: 120_000 };
    const first = await server().client.callTool({ name: "get_requirement", arguments: { id: rid(1) } }, undefined, options);
    const page = first.structuredContent as { id: string; code_references: { line: number }[]; nextCursor: string };
    expect(page.id).toBe(rid(1));
    expect(page.code_references).toHaveLength(5000);
    const rest = await server().client.callTool({ name: "get_requirement", arguments: { id: rid(1), cursor: page.nextCursor } });
    const last = rest.structuredContent as { code_references: { line: number }[]; nextCursor?: string };
    expect(last).not.toHaveProperty("nextCursor");
    expect([...page.code_references, ...last.code_references].map((r) => r.line)).toEqual(Array.from({ length: MANY }, (_, i) => i + 1));

    const resource = await server().client.readResource({ uri: `speky://requirement/${rid(1)}` });
    const read = JSON.parse((resource.contents[0] as { text: string }).text) as typeof page;
    expect(read).toEqual(page);
    expect(JSON.stringify(resource).length).toBeLessThan(MAX_ANSWER_CHARS);

    // Untagged: the answer as it always was, without code_references or cursor.
    const plain = (await server().client.callTool({ name: "get_requirement", arguments: { id: rid(2) } })).structuredContent;
    expect(Object.keys(plain!)).toEqual(["id", "category", "long", "source_file", "short", "tags"]);

    const status = (await server().client.callTool({ name: "get_status", arguments: {} })).structuredContent as {
      problems: { message: string }[];
      nextCursor: string;
      requirements: number;
    };
    expect(status.requirements).toBe(REQUIREMENTS);
    expect(status.problems).toHaveLength(5000);
    expect(status.problems[0].message).toMatch(/unknown field 'owner'/);
    const more = (await server().client.callTool({ name: "get_status", arguments: { cursor: status.nextCursor } })).structuredContent as {
      problems: unknown[];
    };
    expect(more.problems).toHaveLength(PROBLEMS - 5000);
    expect(more).not.toHaveProperty("nextCursor");
  });
});
