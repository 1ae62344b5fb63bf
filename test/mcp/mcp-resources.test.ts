// Requirements and tests as MCP resources: templates, listing, reading, completion, and the
// -32002 error for an unknown one.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, MCP_FIXTURE, ok, type Session } from "../support/mcp.js";

let session: Session;
beforeAll(async () => {
  session = await connect([MCP_FIXTURE]);
});
afterAll(async () => {
  await session?.close();
});

const resource = (kind: string, id: string, title?: string) => ({
  uri: `speky://${kind}/${id}`,
  name: id,
  title: title ?? id,
  mimeType: "application/json",
  description: `A ${kind} by ID, as JSON: the same content as get_${kind}`,
});

async function readError(uri: string): Promise<McpError> {
  const error = await session.client.readResource({ uri }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("resources", () => {
  it("declares one template per kind", async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        name: "requirement",
        title: "Requirement",
        uriTemplate: "speky://requirement/{id}",
        description: "A requirement by ID, as JSON: the same content as get_requirement",
        mimeType: "application/json",
      },
      {
        name: "test",
        title: "Test",
        uriTemplate: "speky://test/{id}",
        description: "A test by ID, as JSON: the same content as get_test",
        mimeType: "application/json",
      },
    ]);
  });

  it("lists every requirement and test, sorted by ID", async () => {
    const { resources } = await session.client.listResources();
    expect(resources).toEqual([
      resource("requirement", "NF-SPEED", "Fast enough"),
      resource("requirement", "REQ-ALL", "Every field"),
      resource("requirement", "REQ-BASE"),
      resource("requirement", "REQ-LONELY", "Nobody tests me"),
      resource("requirement", "REQ-TAGGED", "Tagged and manual"),
      resource("requirement", "SUB-FN"),
      resource("requirement", "SUB-NF", "Sub speed"),
      resource("test", "SUB-T1", "Sub speed test"),
      resource("test", "T-AUTO", "Automated login"),
      resource("test", "T-MANUAL"),
      resource("test", "T-PERF", "Speed check"),
    ]);
  });

  it("reads a requirement and a test as the JSON of get_requirement and get_test", async () => {
    for (const [kind, id] of [
      ["requirement", "REQ-ALL"],
      ["requirement", "SUB-FN"],
      ["test", "T-AUTO"],
    ]) {
      const uri = `speky://${kind}/${id}`;
      const { contents } = await session.client.readResource({ uri });
      const tool = await ok(session.client, `get_${kind}`, { id });
      expect(contents).toEqual([{ uri, mimeType: "application/json", text: JSON.stringify(tool) }]);
    }
  });

  it("answers an unknown or wrong-kind ID with the JSON-RPC error -32002", async () => {
    const unknown = await readError("speky://requirement/NOPE");
    expect(unknown.code).toBe(-32002);
    expect(unknown.message).toContain("Requirement NOPE not found");
    expect(unknown.data).toEqual({ uri: "speky://requirement/NOPE" });
    const wrongKind = await readError("speky://test/REQ-ALL");
    expect(wrongKind.code).toBe(-32002);
    expect(wrongKind.message).toContain("REQ-ALL is a requirement, not a test");
  });

  // speky:speky-ts#TINSTALL-SCHEMA-PORTABLE
  it("answers a URI of no template with the SDK's error, its code prefix said once", async () => {
    const error = await readError("speky://nothing/X");
    expect(error.code).toBe(-32602);
    // The client's McpError adds "MCP error -32602: " itself: the wire message must not carry it.
    expect(error.message).toBe("MCP error -32602: Resource speky://nothing/X not found");
  });

  it("completes IDs by prefix, case-insensitively", async () => {
    const complete = async (kind: string, value: string) =>
      (
        await session.client.complete({
          ref: { type: "ref/resource", uri: `speky://${kind}/{id}` },
          argument: { name: "id", value },
        })
      ).completion;
    expect(await complete("requirement", "REQ-")).toEqual({
      values: ["REQ-ALL", "REQ-BASE", "REQ-LONELY", "REQ-TAGGED"],
      total: 4,
      hasMore: false,
    });
    expect(await complete("requirement", "sub-")).toEqual({ values: ["SUB-FN", "SUB-NF"], total: 2, hasMore: false });
    expect(await complete("test", "T-")).toEqual({
      values: ["T-AUTO", "T-MANUAL", "T-PERF"],
      total: 3,
      hasMore: false,
    });
    expect(await complete("test", "zzz")).toEqual({ values: [], total: 0, hasMore: false });
  });
});
