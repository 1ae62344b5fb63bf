// The plugin in the real Claude Code CLI (@anthropic-ai/claude-code, test/support/claude-code.ts),
// with no model ever called: `claude plugin validate` passes strict; the repository added as a
// local marketplace installs the plugin; `claude plugin details` lists its skills, MCP server and
// LSP server; in a project with a speky.yaml, `claude mcp list` starts the plugin's server through
// its launcher, which builds the plugin's copy of speky-ts on that first start, and shows it
// connected; a second start uses that copy. Slow by nature (a real npm ci on the first start).
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION, claude, claudeCode, claudeEnv } from "../support/claude-code.js";
import { pluginFolder } from "../support/plugin-folder.js";
import { REPO, scratchFolders } from "../support/process.js";

// Each build leaves a copy of some 44 MB: every folder made here is removed once the suite is done.
const scratch = scratchFolders();
const tempDir = scratch.tempDir;
afterAll(scratch.remove);

const INSTALL_MS = 12 * 60_000;
/** The launcher as plugin.json names it: Claude Code puts the plugin's folder in place of the variable. */
const LAUNCH_ARG = ["$", "{CLAUDE_PLUGIN_ROOT}/plugin/launch.mjs"].join("");

let binary: string;
let home: string;
let marketplace: string;
let project: string;
const env = (extra: NodeJS.ProcessEnv = {}) => claudeEnv(home, extra);
const run = (args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}, timeout?: number) =>
  claude(binary, args, cwd, env(extra), timeout);

beforeAll(async () => {
  binary = await claudeCode();
  home = tempDir("speky-claude-home-");
  // The marketplace folder is named as the repository is, as `marketplace add owner/speky-ts` clones it.
  marketplace = pluginFolder(path.join(tempDir("speky-claude-market-"), "speky-ts"));
  project = tempDir("speky-claude-project-");
  cpSync(path.join(REPO, "fixtures/plugin/shop"), project, { recursive: true });
}, INSTALL_MS);

const dataDir = () => path.join(home, ".claude/plugins/data/speky-ts-speky-ts");
const copies = () => (existsSync(path.join(dataDir(), "copies")) ? readdirSync(path.join(dataDir(), "copies")).sort() : []);

// speky:speky-ts#TPLUGIN-CLAUDE
describe(`the plugin in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("passes claude plugin validate --strict, as a plugin and as a marketplace", async () => {
    const validated = await run(["plugin", "validate", "--strict", "--json", marketplace], marketplace);
    expect(validated.status, validated.stdout + validated.stderr).toBe(0);
    const report = JSON.parse(validated.stdout);
    expect(report.success).toBe(true);
    expect(report.manifest).toMatchObject({ type: "marketplace", errors: [], warnings: [] });
    expect(report.provides.mcpServers).toEqual([{ name: "speky", type: "stdio", target: "node", args: [LAUNCH_ARG, "mcp"] }]);
    expect(report.provides.lspServers).toEqual([{ name: "speky", command: "node", args: [LAUNCH_ARG, "lsp"] }]);
    expect(report.provides.hooks).toEqual([{ event: "SessionStart", type: "command", command: `node "${LAUNCH_ARG}" session-start` }]);
    expect(report.provides.skills).toEqual([
      "speky-ts:review-change",
      "speky-ts:start-specification",
      "speky-ts:trace-to-ids",
      "speky-ts:write-test-plans",
    ]);
    const plugin = await run(["plugin", "validate", "--strict", path.join(marketplace, ".claude-plugin/plugin.json")], marketplace);
    expect(plugin.status, plugin.stdout + plugin.stderr).toBe(0);
    expect(plugin.stdout).toContain("Validation passed");
  });

  it("installs from the repository added as a local marketplace", async () => {
    const added = await run(["plugin", "marketplace", "add", "--json", marketplace], project);
    expect(added.status, added.stdout + added.stderr).toBe(0);
    expect(JSON.parse(added.stdout.trim().split("\n").pop()!)).toMatchObject({ outcome: "ok", marketplace: "speky-ts" });
    const installed = await run(["plugin", "install", "--json", "speky-ts@speky-ts"], project);
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout.trim().split("\n").pop()!)).toMatchObject({ outcome: "ok", pluginId: "speky-ts@speky-ts" });
    const listed = JSON.parse((await run(["plugin", "list", "--json"], project)).stdout) as {
      id: string;
      enabled: boolean;
      version: string;
    }[];
    const version = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).version;
    expect(listed.find((p) => p.id === "speky-ts@speky-ts")).toMatchObject({ enabled: true, version });
  });

  it("lists its skills, its hook, its MCP server and its LSP server in claude plugin details", async () => {
    const details = await run(["plugin", "details", "speky-ts"], project);
    expect(details.status, details.stdout + details.stderr).toBe(0);
    expect(details.stdout).toMatch(/^ {2}Skills \(4\) {2}review-change, start-specification, trace-to-ids, write-test-plans$/m);
    expect(details.stdout).toMatch(/^ {2}Hooks \(1\)/m);
    expect(details.stdout).toMatch(/^ {2}MCP servers \(1\) {2}speky\b/m);
    expect(details.stdout).toMatch(/^ {2}LSP servers \(1\) {2}speky\b/m);
  });

  it(
    "shows the plugin's server connected in a project with a speky.yaml: built on the first start, reused on the next",
    async () => {
      expect(copies()).toEqual([]);
      // The first start builds the copy (npm ci and the build: a minute or more, past Claude Code's
      // 30 s connect bound); MCP_TIMEOUT is the user's knob for that start, as the README says.
      const first = await run(["mcp", "list"], project, { MCP_TIMEOUT: String(INSTALL_MS) }, INSTALL_MS);
      expect(first.stdout, first.stderr).toMatch(/^plugin:speky-ts:speky: node .*\/plugin\/launch\.mjs mcp - ✔ Connected$/m);
      expect(copies()).toHaveLength(1);
      const [copy] = copies();
      expect(existsSync(path.join(dataDir(), "copies", copy, ".installed"))).toBe(true);
      // devDependencies pruned after the build: TypeScript is gone, the SDK stays.
      expect(existsSync(path.join(dataDir(), "copies", copy, "node_modules/typescript"))).toBe(false);
      expect(existsSync(path.join(dataDir(), "copies", copy, "node_modules/@modelcontextprotocol/sdk"))).toBe(true);

      const second = await run(["mcp", "list"], project);
      expect(second.stdout, second.stderr).toMatch(/^plugin:speky-ts:speky: .* - ✔ Connected$/m);
      expect(copies()).toEqual([copy]);
    },
    INSTALL_MS + 120_000,
  );

  it("fails to connect, quickly, in a project with no speky.yaml", async () => {
    const empty = tempDir("speky-claude-empty-");
    const listed = await run(["mcp", "list"], empty);
    expect(listed.stdout).toMatch(/^plugin:speky-ts:speky: .* - ✘ Failed to connect/m);
  });
});
