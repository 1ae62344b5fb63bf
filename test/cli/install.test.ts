// The ways people get speky-ts, each with the real tool: `npm ci` in a clean clone, `npm pack`
// then `npm install <tarball>`, `npm install git+file://...#<sha>`, and the pre-commit framework
// running this repository's hook at a commit. They install the committed HEAD (a clone of this
// repository), not the working tree. Slow by nature (real npm installs): each step is bounded,
// and the three paths run concurrently.
import { type SpawnOptions, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmEnv } from "../support/npm-env.js";
import { REPO, scratchFolders } from "../support/process.js";

const STEP_MS = 8 * 60_000;
const TEST_MS = 12 * 60_000;

// Each path installs a few hundred MB: removed once the suite is done.
const scratch = scratchFolders();
const tempDir = scratch.tempDir;
afterAll(scratch.remove, STEP_MS);

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeout?: number;
}

function run(command: string, args: string[], cwd: string, options: RunOptions = {}): Promise<Ran> {
  const spawnOptions: SpawnOptions = { cwd, env: options.env ?? npmEnv(), stdio: ["pipe", "pipe", "pipe"] };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, spawnOptions);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout ?? STEP_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")}: ${error.message}`));
    });
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`${command} ${args.join(" ")}: killed (${signal}), over its time bound:\n${stdout}\n${stderr}`));
      else resolve({ status, stdout, stderr });
    });
    // A child may exit without reading its input: that is not an error of the test.
    child.stdin!.on("error", () => {});
    child.stdin!.end(options.input ?? "");
  });
}

async function ok(command: string, args: string[], cwd: string, options: RunOptions = {}): Promise<Ran> {
  const r = await run(command, args, cwd, options);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** A small project that uses speky, with its manifest where the README puts it (./speky.yaml), one requirement, one tag. */
function userProject(dir: string, tag: string): void {
  mkdirSync(path.join(dir, "specs"), { recursive: true });
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(path.join(dir, "speky.yaml"), "kind: project\nname: shop\nfiles: [specs/reqs.yaml]\ncode_sources: ['src/**/*.py']\n");
  writeFileSync(
    path.join(dir, "specs/reqs.yaml"),
    "kind: requirements\ncategory: functional\nrequirements:\n  - id: REQ-1\n    short: One\n    long: The first requirement.\n",
  );
  writeFileSync(path.join(dir, "src/cart.py"), `# speky:shop#${tag}\ndef add():\n    pass\n`);
}

/** Bytes of the files under a folder (links not followed), as an install leaves it. */
function treeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) bytes += treeBytes(p);
    else if (entry.isFile()) bytes += statSync(p).size;
  }
  return bytes;
}

const DANGLING = "src/cart.py:1:3: error: tag speky:shop#REQ-2 names an unknown ID 'REQ-2'; did you mean REQ-1?";

/** Both binaries of an installed package work: help, a check with a finding, the server's start. */
async function expectWorkingBinaries(binDir: string): Promise<void> {
  const project = tempDir("speky-ts-user-");
  userProject(project, "REQ-2");
  const help = await ok(path.join(binDir, "speky"), ["check", "--help"], project);
  expect(help.stdout).toContain("Usage:\n  speky check [PATH...");
  // No argument: ./speky.yaml.
  const check = await run(path.join(binDir, "speky"), ["check"], project);
  expect(check.stdout).toBe(`${DANGLING}\n1 error, 0 warnings in 3 files\n`);
  expect(check.status).toBe(1);
  // (The check found the tag: the grammars and wasm files of the installed package load.)
  // The server loads, serves, and exits 0 when its client closes stdin.
  const mcp = await ok(path.join(binDir, "speky-mcp"), ["speky.yaml"], project);
  expect(mcp.stderr).toContain("loaded 1 requirement and 0 tests");
  expect((await ok(path.join(binDir, "speky-mcp"), ["-h"], project)).stdout).toContain("speky-mcp [PATH...]");
}

let clone: string;
let sha: string;

beforeAll(async () => {
  clone = path.join(tempDir("speky-ts-clone-"), "speky-ts");
  await ok("git", ["clone", "-q", REPO, clone], REPO);
  sha = (await ok("git", ["rev-parse", "HEAD"], clone)).stdout.trim();
}, STEP_MS);

describe.concurrent("installing speky-ts", () => {
  // speky:speky-ts#TINSTALL-TARBALL
  it(
    "from a clean clone: npm ci gives no engine warning on Node 20; npm pack, then npm install <tarball>",
    async () => {
      // In a copy: npm ci writes node_modules and dist/ where the other paths install from.
      const copy = path.join(tempDir("speky-ts-ci-"), "speky-ts");
      await ok("git", ["clone", "-q", clone, copy], REPO);
      const ci = await ok("npm", ["ci"], copy);
      // No engine warning on Node 20. (npm 11 also lists dependencies with install scripts it did
      // not run, tree-sitter-bash's and -scala's native builds: only their wasm files are used.)
      expect(`${ci.stdout}${ci.stderr}`).not.toMatch(/EBADENGINE|engine/i);
      // prepare built dist/ during npm ci: the binaries of the clone itself work.
      expect((await ok(process.execPath, ["bin/speky.js", "--version"], copy)).stdout).toMatch(/^speky \d/);

      const packDir = tempDir("speky-ts-pack-");
      const packed = (await ok("npm", ["pack", "--pack-destination", packDir], copy)).stdout.trim().split("\n").pop()!;
      const tarball = path.join(packDir, packed);
      expect(existsSync(tarball)).toBe(true);
      const user = tempDir("speky-ts-tgz-");
      await ok("npm", ["init", "-y"], user);
      const installed = await ok("npm", ["install", tarball], user);
      // speky:speky-ts#TINSTALL-SLIM
      // Quiet and small: no install script (ours included), no grammar package, under 60 MB.
      expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/warn|install-scripts|gyp/i);
      const packages = readdirSync(path.join(user, "node_modules")).flatMap((name) =>
        name.startsWith("@") ? readdirSync(path.join(user, "node_modules", name)).map((n) => `${name}/${n}`) : [name],
      );
      expect(packages.filter((name) => /tree-sitter-(?!wasm)|tree-sitter-wasms|fast-glob|npm-check-updates/.test(name))).toEqual([]);
      expect(treeBytes(path.join(user, "node_modules"))).toBeLessThan(60e6);
      await expectWorkingBinaries(path.join(user, "node_modules/.bin"));
    },
    TEST_MS,
  );

  // speky:speky-ts#TINSTALL-GIT
  it(
    "from git: npm install git+file://<clone>#<sha> builds dist/ and gives working binaries",
    async () => {
      const user = tempDir("speky-ts-git-");
      await ok("npm", ["init", "-y"], user);
      await ok("npm", ["install", `git+file://${clone}#${sha}`], user);
      expect(existsSync(path.join(user, "node_modules/speky-ts/dist/entry/speky.js"))).toBe(true);
      await expectWorkingBinaries(path.join(user, "node_modules/.bin"));
    },
    TEST_MS,
  );
});

/**
 * pre-commit from pip in a venv under `dir` (what the issue asks), or Debian's (3.0, which
 * installs a node hook differently: `npm pack`, then `npm install -g` of what it printed);
 * else the reason to skip.
 */
async function preCommit(how: "pip" | "debian", dir: string): Promise<{ bin: string } | { skip: string }> {
  if (how === "debian") {
    return existsSync("/usr/bin/pre-commit")
      ? { bin: "/usr/bin/pre-commit" }
      : { skip: "no Debian pre-commit (apt-get install pre-commit)" };
  }
  const venv = path.join(dir, "venv");
  const made = await run("python3", ["-m", "venv", venv], dir, { timeout: 120_000 });
  if (made.status !== 0) return { skip: `python3 -m venv failed: ${made.stderr.trim()}` };
  const pip = await run(path.join(venv, "bin/pip"), ["install", "--timeout", "10", "--retries", "1", "pre-commit"], dir);
  if (pip.status !== 0) return { skip: `pip reaches no package index: ${pip.stderr.trim().split("\n").pop()}` };
  return { bin: path.join(venv, "bin/pre-commit") };
}

// One after the other: both have npm prepare the same git dependency (this repository at one
// commit) in the one npm cache, and two preparations at once race in it (a clean-clone CI run
// failed so: "TAR_ENTRY_ERROR ENOENT", "git dep preparation failed", in the pip variant).
describe.sequential("the pre-commit hook, through the real pre-commit framework", () => {
  // speky:speky-ts#TINSTALL-PRECOMMIT
  it.for(["pip", "debian"] as const)(
    "%s's pre-commit blocks a commit with a dangling tag, with the message, and lets the fixed commit through",
    { timeout: TEST_MS },
    async (how, context) => {
      const dir = tempDir("speky-ts-precommit-");
      const found = await preCommit(how, dir);
      if ("skip" in found) return context.skip(found.skip);
      console.log(`${how}: ${(await ok(found.bin, ["--version"], dir)).stdout.trim()}`);

      const repo = path.join(dir, "repo");
      mkdirSync(repo);
      userProject(repo, "REQ-2");
      // No args: the hook's default manifest is the one the README tells people to create.
      writeFileSync(
        path.join(repo, ".pre-commit-config.yaml"),
        `repos:\n  - repo: ${clone}\n    rev: ${sha}\n    hooks:\n      - id: speky-check\n`,
      );
      const gitConfig = path.join(dir, "gitconfig");
      writeFileSync(gitConfig, "[user]\n  name = Test\n  email = test@example.com\n[init]\n  defaultBranch = main\n");
      const env = npmEnv({ PRE_COMMIT_HOME: path.join(dir, "cache"), GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: "1" });
      const git = (...args: string[]) => run("git", args, repo, { env });
      expect((await git("init", "-q")).status).toBe(0);
      await ok(found.bin, ["install"], repo, { env });
      await git("add", "-A");

      const blocked = await git("commit", "-m", "dangling");
      expect(blocked.status).toBe(1);
      expect(`${blocked.stdout}${blocked.stderr}`).toContain(DANGLING);
      expect((await git("rev-parse", "--verify", "-q", "HEAD")).status).not.toBe(0);

      writeFileSync(path.join(repo, "src/cart.py"), "# speky:shop#REQ-1\ndef add():\n    pass\n");
      await git("add", "-A");
      const passed = await git("commit", "-m", "fixed");
      expect(`${passed.stdout}${passed.stderr}`).toMatch(/speky check\.+Passed/);
      expect(passed.status).toBe(0);
      expect(readdirSync(path.join(dir, "cache")).length).toBeGreaterThan(0);
    },
  );
});
