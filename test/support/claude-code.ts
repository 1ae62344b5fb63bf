// The real Claude Code CLI from the npm registry, for the plugin's tests: installed once per
// machine into a folder of the temp dir (not a devDependency: its native binary is 400 MB),
// reused while it answers its version. It runs with HOME, CLAUDE_CONFIG_DIR and TMPDIR in a temp
// folder, so the user's configuration is never read or written, with no API key (no model is
// ever called: only `claude plugin ...` and `claude mcp list`) and with its non-essential traffic
// (telemetry, error reports, update checks) switched off.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The CLI version the plugin is tested with. */
export const CLAUDE_CODE_VERSION = "2.1.332";

const PREFIX = path.join(os.tmpdir(), `speky-claude-code-${CLAUDE_CODE_VERSION}`);
const CANDIDATES = [
  path.join(PREFIX, "node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
  // Where the native binary comes from, if npm ran no install script to copy it over the stub.
  path.join(PREFIX, `node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`),
];

/** The environment of every npm and claude run here: no npm_* of an outer `npm test`, no CLAUDE* or ANTHROPIC* of an outer session. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|CLAUDE|ANTHROPIC|MCP_)/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

function answersVersion(binary: string): boolean {
  if (!existsSync(binary)) return false;
  // Even --version runs with a home of its own: nothing of the user's is read or written.
  const home = mkdtempSync(path.join(os.tmpdir(), "speky-claude-version-"));
  try {
    const ran = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 60_000, env: claudeEnv(home) });
    return ran.status === 0 && ran.stdout.startsWith(`${CLAUDE_CODE_VERSION} `);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The npm cache of the user running the tests: what it already holds is not downloaded again. */
export function npmCache(): string {
  const ran = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8", env: isolatedEnv() });
  return ran.stdout.trim() || path.join(os.homedir(), ".npm");
}

/** The path of the `claude` binary, installed first when missing (minutes the first time). */
export async function claudeCode(): Promise<string> {
  const found = CANDIDATES.find(answersVersion);
  if (found) return found;
  mkdirSync(PREFIX, { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const args = [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--prefix",
      PREFIX,
      `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
    ];
    const child = spawn("npm", args, { env: isolatedEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10 * 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(" ")} exited ${code}:\n${output}`));
    });
  });
  const installed = CANDIDATES.find(answersVersion);
  if (!installed)
    throw new Error(`@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} installed in ${PREFIX}, but no binary there answers --version`);
  return installed;
}

/** The variables of a claude run in the temp `home`: its own config, temp folder and npm settings. */
export function claudeEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const tmp = path.join(home, "tmp");
  mkdirSync(tmp, { recursive: true });
  return isolatedEnv({
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local/share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    TMPDIR: tmp,
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // The plugin's first start runs npm ci: from the user's npm cache, as any install of the suites does.
    npm_config_cache: npmCache(),
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    ...extra,
  });
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `claude ARGS` in `cwd`, bounded in time; never with an input (nothing may wait for a person). */
export function claude(binary: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 120_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.once("error", reject);
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`claude ${args.join(" ")}: killed (${signal}) after ${timeout} ms:\n${stdout}\n${stderr}`));
      else resolve({ status, stdout, stderr });
    });
  });
}
