// server.json, the MCP registry's description of speky-mcp, checked field by field against the
// registry's documented format (generic-server-json.md and official-registry-requirements.md of
// modelcontextprotocol/registry; its JSON Schema is published on static.modelcontextprotocol.io,
// not on the npm registry), and against package.json, whose mcpName the registry reads from the
// published package to prove ownership.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO } from "../support/process.js";

const json = (file: string) => JSON.parse(readFileSync(path.join(REPO, file), "utf8")) as Record<string, unknown>;

/** An exact version: what the registry takes (no range, no "latest"). */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

// speky:speky-ts#TMCP-REGISTRY
it("describes speky-mcp as the registry documents server.json, in step with package.json", () => {
  const server = json("server.json");
  const pkg = json("package.json") as { name: string; version: string; mcpName: string; bin: Record<string, string> };
  expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
  // name: reverse-DNS namespace, exactly one slash, at most 200 characters; the same as mcpName.
  expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  expect((server.name as string).length).toBeLessThanOrEqual(200);
  expect(pkg.mcpName).toBe(server.name);
  // description: 1 to 100 characters; version: exact, the package's.
  expect((server.description as string).length).toBeGreaterThan(0);
  expect((server.description as string).length).toBeLessThanOrEqual(100);
  expect(server.version).toMatch(EXACT_VERSION);
  expect(server.version).toBe(pkg.version);
  const packages = server.packages as Record<string, unknown>[];
  expect(packages).toHaveLength(1);
  const [npm] = packages;
  expect(npm).toMatchObject({
    registryType: "npm",
    registryBaseUrl: "https://registry.npmjs.org",
    identifier: pkg.name,
    version: pkg.version,
    transport: { type: "stdio" },
  });
  // npx runs the bin named as the package: speky-mcp.
  expect(pkg.bin[pkg.name]).toBe(pkg.bin["speky-mcp"]);
  for (const arg of npm.packageArguments as Record<string, unknown>[]) {
    expect(["positional", "named"]).toContain(arg.type);
    expect(typeof arg.description).toBe("string");
  }
  const known = ["$schema", "name", "title", "description", "version", "packages", "remotes", "repository", "websiteUrl", "icons", "_meta"];
  expect(Object.keys(server).filter((k) => !known.includes(k))).toEqual([]);
});
