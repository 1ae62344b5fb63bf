// The same calls through the MCP Inspector CLI (a devDependency), the tool users reach for
// first when a server misbehaves: it must list, call and read exactly as our own client does.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { MCP_FIXTURE, MCP_MAIN } from "../support/mcp.js";
import { REPO } from "../support/process.js";

// 0.15.0: the last release whose engines (and its dependencies') accept Node 20; its CLI has no
// --strict, so schema portability is checked below with Ajv's strict mode instead.
const INSPECTOR = path.join(REPO, "node_modules/@modelcontextprotocol/inspector/cli/build/cli.js");

function inspect(...args: string[]) {
  const run = spawnSync(process.execPath, [INSPECTOR, "--cli", process.execPath, MCP_MAIN, MCP_FIXTURE, "--quiet", ...args], {
    cwd: REPO,
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const expected = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "fixtures/mcp/expected", `${name}.json`), "utf8"));

describe("MCP Inspector CLI", () => {
  // speky:speky-ts#TINSTALL-SCHEMA-PORTABLE
  it("lists the fourteen tools, every schema portable (no type arrays, Ajv strict)", () => {
    expect(existsSync(INSPECTOR)).toBe(true);
    const run = inspect("--method", "tools/list");
    expect(run.status).toBe(0);
    const tools = JSON.parse(run.stdout).tools as { name: string; inputSchema: object; outputSchema?: object }[];
    expect(tools).toHaveLength(14);
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema, tool.name).toBeDefined();
        // A list of types is what strict clients reject; anyOf says the same portably.
        expect(JSON.stringify(schema), tool.name).not.toMatch(/"type":\[/);
        // Ajv with strictTypes refuses union types, strictSchema unknown keywords.
        expect(() => new Ajv({ strictSchema: true, strictTypes: true, allowUnionTypes: false }).compile(schema!), tool.name).not.toThrow();
      }
    }
  });

  it("calls get_requirement, get_test and least_tested_requirements", () => {
    const call = (tool: string, ...args: string[]) => {
      const run = inspect("--method", "tools/call", "--tool-name", tool, ...args.flatMap((a) => ["--tool-arg", a]));
      expect(run.status).toBe(0);
      return JSON.parse(run.stdout).structuredContent;
    };
    expect(call("get_requirement", "id=REQ-ALL")).toEqual(expected("get_requirement.REQ-ALL"));
    expect(call("get_test", "id=T-AUTO")).toEqual(expected("get_test.T-AUTO"));
    expect(call("least_tested_requirements", "tag=auth", "count=1")).toEqual({
      requirements: [{ id: "REQ-TAGGED", category: "functional", short: "Tagged and manual", test_plans: 1, automated_test_plans: 0 }],
    });
  });

  it("shows a domain error as an isError result", () => {
    const run = inspect("--method", "tools/call", "--tool-name", "get_requirement", "--tool-arg", "id=NOPE");
    const result = JSON.parse(run.stdout);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: "Requirement NOPE not found" });
  });

  it("reads a resource", () => {
    const run = inspect("--method", "resources/read", "--uri", "speky://requirement/SUB-NF");
    expect(run.status).toBe(0);
    expect(JSON.parse(JSON.parse(run.stdout).contents[0].text)).toEqual(expected("get_requirement.SUB-NF"));
  });
});
