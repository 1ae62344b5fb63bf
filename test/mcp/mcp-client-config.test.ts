// The README's MCP client configurations, run as written: speky-ts installed by the real npm
// into a fresh project as a devDependency (from this folder: npm links it, as it would copy a
// tarball, and writes the same node_modules/.bin), then each snippet handed to the MCP
// Inspector's CLI (`--config FILE --server speky`, the way a client reads it) with a PATH that
// holds node and nothing of ours. The Inspector is our devDependency, the version the README
// names for `npx @modelcontextprotocol/inspector@<version>`.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../support/process.js";

const INSPECTOR_DIR = path.join(REPO, "node_modules/@modelcontextprotocol/inspector");
const INSPECTOR = path.join(INSPECTOR_DIR, "cli/build/cli.js");
const PLACEHOLDER = "/path/to/project";

interface Snippet {
  /** The paragraph before the snippet: where the client starts the server. */
  context: string;
  config: { mcpServers: Record<string, { command: string; args?: string[] }> };
}

/** The JSON blocks of the README's "MCP server" section, each with the paragraph before it. */
function readmeSnippets(): { snippets: Snippet[]; section: string } {
  const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
  const start = readme.indexOf("\n## MCP server\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const snippets: Snippet[] = [];
  const block = /```json\n([\s\S]*?)```/g;
  let previousEnd = 0;
  for (let m = block.exec(section); m !== null; m = block.exec(section)) {
    const paragraphs = section
      .slice(previousEnd, m.index)
      .trim()
      .split(/\n\s*\n/);
    snippets.push({ context: paragraphs[paragraphs.length - 1], config: JSON.parse(m[1]) });
    previousEnd = m.index + m[0].length;
  }
  return { snippets, section };
}

let project: string;
let elsewhere: string;
// Node (and npx, beside it) and the system's tools; nothing of this repository.
const BASE_PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
const npmEnv = (extra: NodeJS.ProcessEnv = {}) => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "PATH") env[k] = v;
  return { ...env, PATH: BASE_PATH, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", ...extra };
};

beforeAll(() => {
  project = tempDir("speky-mcp-client-");
  elsewhere = tempDir("speky-mcp-client-cwd-");
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "demo", private: true }));
  writeFileSync(path.join(project, "speky.yaml"), "kind: project\nname: demo\nfiles: [specs/reqs.yaml]\n");
  mkdirSync(path.join(project, "specs"));
  writeFileSync(
    path.join(project, "specs/reqs.yaml"),
    "kind: requirements\ncategory: functional\nrequirements:\n  - id: DEMO-1\n    long: The demo answers.\n",
  );
  // dist/ is built already: the install must not rebuild this working tree (prepare).
  const install = spawnSync("npm", ["install", "--save-dev", "--ignore-scripts", "--offline", REPO], {
    cwd: project,
    env: npmEnv(),
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(install.status, install.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  for (const dir of [project, elsewhere]) rmSync(dir, { recursive: true, force: true });
});

/** The snippet written to a config file, then the Inspector's CLI run on it, as the README's context says. */
function runSnippet(snippet: Snippet, ...method: string[]) {
  const text = JSON.stringify(snippet.config).replaceAll(PLACEHOLDER, project);
  const file = path.join(project, "client.json");
  writeFileSync(file, text);
  const global = /npm install -g/.test(snippet.context);
  const ownFolder = /folder of its own/.test(snippet.context);
  // A machine-wide install puts its bin folder on the PATH: the project's stands in for it.
  const PATH = global ? [path.join(project, "node_modules/.bin"), BASE_PATH].join(path.delimiter) : BASE_PATH;
  return spawnSync(process.execPath, [INSPECTOR, "--cli", "--config", file, "--server", "speky", ...method], {
    cwd: ownFolder ? elsewhere : project,
    env: npmEnv({ PATH }),
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("the README's MCP client configurations", () => {
  // speky:speky-ts#TMCP-CLIENT-CONFIG
  it("each serve the project's specification through the MCP Inspector's CLI", () => {
    const { snippets } = readmeSnippets();
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    for (const snippet of snippets) {
      const run = runSnippet(snippet, "--method", "tools/call", "--tool-name", "list_all_ids");
      expect(run.stderr + run.stdout, JSON.stringify(snippet.config)).not.toMatch(/ENOENT|Failed to connect/);
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).structuredContent, JSON.stringify(snippet.config)).toEqual({ requirements: ["DEMO-1"], tests: [] });
    }
  });

  // speky:speky-ts#TMCP-CLIENT-CONFIG
  it("name the Inspector version we test with, and its --config/--server/--method form", () => {
    const { section } = readmeSnippets();
    const version = JSON.parse(readFileSync(path.join(INSPECTOR_DIR, "package.json"), "utf8")).version;
    const command = new RegExp(
      `npx @modelcontextprotocol/inspector@${version.replaceAll(".", "\\.")} --cli --config \\S+ --server speky --method tools/list`,
    );
    expect(section).toMatch(command);
    const { snippets } = readmeSnippets();
    const run = runSnippet(snippets[0], "--method", "tools/list");
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).tools.map((t: { name: string }) => t.name)).toContain("get_requirement");
  });
});
