// The plugin's launcher (plugin/launch.mjs) as Claude Code runs it: `node launch.mjs mcp` with
// CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA and CLAUDE_PROJECT_DIR set. The first start builds the
// plugin's copy of speky-ts (a real npm ci and build) while the client waits; servers starting
// together build it once; a launcher stopped meanwhile does not stop the build; a changed plugin
// builds a new copy and keeps the one before; a failed build says why. Slow by nature.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, npmCache } from "../support/claude-code.js";
import { startLsp } from "../support/lsp.js";
import { pluginFolder } from "../support/plugin-folder.js";
import { REPO, scratchFolders } from "../support/process.js";

// Each build leaves a copy of some 44 MB: every folder made here is removed once the suite is done.
const scratch = scratchFolders();
const tempDir = scratch.tempDir;
afterAll(scratch.remove);

const BUILD_MS = 12 * 60_000;

let root: string;
let data: string;
let project: string;

function launcherEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = isolatedEnv({
    CLAUDE_PLUGIN_ROOT: root,
    CLAUDE_PLUGIN_DATA: data,
    CLAUDE_PROJECT_DIR: project,
    SPEKY_CACHE_DIR: process.env.SPEKY_CACHE_DIR ?? "",
    npm_config_cache: npmCache(),
    npm_config_prefer_offline: "true",
    ...extra,
  });
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

const LAUNCHER = () => path.join(root, "plugin/launch.mjs");
const copies = (dir = data) => (existsSync(path.join(dir, "copies")) ? readdirSync(path.join(dir, "copies")).sort() : []);

/** An SDK client on `node launch.mjs mcp`, waiting as long as a first start takes. */
async function connectThroughLauncher(env: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [LAUNCHER(), "mcp"], cwd: project, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "launcher-test", version: "0" });
  await client.connect(transport, { timeout: BUILD_MS });
  return { client, stderr: () => stderr };
}

function launch(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [LAUNCHER(), ...args], { cwd: project, env, encoding: "utf8", timeout: BUILD_MS });
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(() => {
  root = pluginFolder(path.join(tempDir("speky-launcher-root-"), "speky-ts"));
  data = tempDir("speky-launcher-data-");
  project = tempDir("speky-launcher-project-");
  cpSync(path.join(REPO, "fixtures/plugin/shop"), project, { recursive: true });
});

// speky:speky-ts#TPLUGIN-LAUNCHER
describe("the plugin's launcher", () => {
  it(
    "builds the copy once for two servers starting together, and each serves MCP on a stdout of its own",
    async () => {
      const env = launcherEnv();
      const [a, b] = await Promise.all([connectThroughLauncher(env), connectThroughLauncher(env)]);
      for (const session of [a, b]) {
        // The SDK client refuses any line on stdout that is not JSON-RPC: the build wrote none.
        const { tools } = await session.client.listTools();
        expect(tools.map((t) => t.name)).toContain("get_requirement");
        const { prompts } = await session.client.listPrompts();
        expect(prompts).toHaveLength(4);
        expect(session.stderr()).toContain("speky-ts plugin: building its copy of speky-ts");
        await session.client.close();
      }
      expect(copies()).toHaveLength(1);
      const log = readFileSync(path.join(data, "install.log"), "utf8");
      expect(log.match(/^building speky-ts /gm)).toHaveLength(1);
      // A third start finds the copy built: it says nothing of a build.
      const c = await connectThroughLauncher(env);
      expect(c.stderr()).not.toContain("building");
      await c.client.close();
    },
    BUILD_MS + 60_000,
  );

  it(
    "builds a new copy for a changed plugin, even when the launcher is stopped meanwhile, keeping the copy before",
    async () => {
      const [before] = copies();
      // An older copy than both: removed once the new one is built.
      mkdirSync(path.join(data, "copies/0.0.1-0000000000000000"));
      utimesSync(path.join(data, "copies/0.0.1-0000000000000000"), new Date(2000, 0, 1), new Date(2000, 0, 1));
      writeFileSync(path.join(root, "src/version.ts"), `${readFileSync(path.join(root, "src/version.ts"), "utf8")}// changed\n`);
      const child = spawn(process.execPath, [LAUNCHER(), "install"], { cwd: project, env: launcherEnv(), stdio: "ignore" });
      // The worker holds the lock once it builds: then the launcher is stopped, as a client that gave up.
      await until(() => existsSync(path.join(data, "install.lock")), 60_000);
      child.kill("SIGKILL");
      await until(() => copies().some((c) => c !== before && existsSync(path.join(data, "copies", c, ".installed"))), BUILD_MS);
      await until(() => !existsSync(path.join(data, "install.lock")), 60_000);
      const after = copies().filter((c) => c !== before);
      expect(after).toHaveLength(1);
      expect(copies()).toEqual([before, after[0]].sort());
      const served = launch(["install"], launcherEnv());
      expect(served.status, served.stderr).toBe(0);
      expect(served.stderr).toBe(`speky-ts plugin: speky-ts is built in ${path.join(data, "copies", after[0])}\n`);
    },
    BUILD_MS + 120_000,
  );

  it("serves speky lsp from the copy: a tag of an unknown ID is diagnosed as it is typed", async () => {
    const lsp = await startLsp(project, { argv: [LAUNCHER(), "lsp"], env: launcherEnv() });
    try {
      await lsp.status((st) => st.state === "ready" && st.scanned);
      const v = lsp.open("src/cart.py", readFileSync(path.join(project, "src/cart.py"), "utf8").replace("#REQ-3", "#REQ-33"), "python");
      const found = await lsp.diagnostics("src/cart.py", v, (d) => d.length > 0);
      expect(found.map((d) => d.message)).toEqual(["tag speky:shop#REQ-33 names an unknown ID 'REQ-33'; did you mean REQ-3?"]);
      // Built already: the launcher said nothing of a build.
      expect(lsp.stderr()).not.toContain("building");
    } finally {
      await lsp.close();
    }
  });

  it("puts speky on the PATH of the session's shell at its start, silently, the shim running the copy's speky", () => {
    const envFile = path.join(tempDir("speky-launcher-env-"), "session.sh");
    const hook = launch(["session-start"], launcherEnv({ CLAUDE_ENV_FILE: envFile }));
    expect(hook.status, hook.stderr).toBe(0);
    // A SessionStart hook's stdout goes to the model: nothing there.
    expect(hook.stdout).toBe("");
    const bin = path.join(data, "bin");
    expect(readFileSync(envFile, "utf8")).toBe(`export PATH='${bin}':"$PATH"\n`);
    // As Claude Code runs a shell command of the session: the file sourced first, in the project.
    const shell = spawnSync("sh", ["-c", `. '${envFile}' && speky --version && speky check speky.yaml`], {
      cwd: project,
      env: launcherEnv({ CLAUDE_PLUGIN_ROOT: "", CLAUDE_PLUGIN_DATA: "" }),
      encoding: "utf8",
    });
    expect(shell.status, shell.stderr).toBe(0);
    expect(shell.stdout).toBe("speky 0.1.0\n0 errors, 0 warnings in 5 files\n");
  });

  it("starts the build at a session's start when the copy is missing, and never fails the session", async () => {
    const broken = pluginFolder(path.join(tempDir("speky-launcher-broken-"), "speky-ts"));
    writeFileSync(path.join(broken, "package-lock.json"), "{ not json");
    const own = tempDir("speky-launcher-data-");
    const hook = launch(["session-start"], launcherEnv({ CLAUDE_PLUGIN_ROOT: broken, CLAUDE_PLUGIN_DATA: own }));
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe("");
    // The worker it started runs on: here it fails at npm ci, and says so in its mark.
    await until(() => readdirSync(own).some((f) => f.startsWith("failed-")), 120_000);
    expect(existsSync(path.join(own, "bin/speky"))).toBe(true);
  });

  it("refuses to serve a project with no speky.yaml, saying so, and builds nothing", () => {
    const empty = tempDir("speky-launcher-empty-");
    const own = tempDir("speky-launcher-data-");
    const ran = spawnSync(process.execPath, [LAUNCHER(), "mcp"], {
      cwd: empty,
      env: launcherEnv({ CLAUDE_PROJECT_DIR: empty, CLAUDE_PLUGIN_DATA: own }),
      encoding: "utf8",
    });
    expect(ran.status).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain(`speky-ts plugin: no speky.yaml in ${empty}: speky-mcp serves a project's manifest`);
    expect(copies(own)).toEqual([]);
    const named = spawnSync(process.execPath, [LAUNCHER(), "mcp"], {
      cwd: empty,
      env: launcherEnv({ CLAUDE_PROJECT_DIR: empty, CLAUDE_PLUGIN_DATA: own, SPEKY_MANIFEST: "specs/manifest.yaml" }),
      encoding: "utf8",
    });
    expect(named.stderr).toContain("no specs/manifest.yaml in");
  });

  it("answers its usage, and needs CLAUDE_PLUGIN_DATA", () => {
    const usage = launch([], launcherEnv());
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^usage: node plugin\/launch\.mjs mcp/);
    const noData = launch(["install"], launcherEnv({ CLAUDE_PLUGIN_DATA: "" }));
    expect(noData.status).toBe(2);
    expect(noData.stderr).toContain("CLAUDE_PLUGIN_DATA is not set");
  });

  it("says why a build failed, with its log, and leaves no copy", () => {
    const broken = pluginFolder(path.join(tempDir("speky-launcher-broken-"), "speky-ts"));
    writeFileSync(path.join(broken, "package-lock.json"), "{ not json");
    const own = tempDir("speky-launcher-data-");
    const ran = launch(["install"], launcherEnv({ CLAUDE_PLUGIN_ROOT: broken, CLAUDE_PLUGIN_DATA: own }));
    expect(ran.status).toBe(1);
    expect(ran.stderr).toMatch(/speky-ts plugin: could not build speky-ts: npm ci --ignore-scripts .* exited 1 \(log: .*install\.log\)/);
    expect(copies(own).filter((c) => !c.includes(".partial"))).toEqual([]);
    expect(readdirSync(own).filter((f) => f.startsWith("failed-"))).toHaveLength(1);
  });

  it("refuses a plugin folder holding a link, before copying anything", () => {
    const linked = pluginFolder(path.join(tempDir("speky-launcher-link-"), "speky-ts"));
    symlinkSync("/etc/passwd", path.join(linked, "src/passwd"));
    const own = tempDir("speky-launcher-data-");
    const ran = launch(["install"], launcherEnv({ CLAUDE_PLUGIN_ROOT: linked, CLAUDE_PLUGIN_DATA: own }));
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain(`${path.join(linked, "src/passwd")} is not a regular file or folder (a link?)`);
    expect(copies(own)).toEqual([]);
  });
});
