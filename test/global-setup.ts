// Suites run the built binaries (dist/): build once before any of them. `npm test` already
// built in its pretest step (where a type error fails the run), so a run started by it skips this.
// The suites run with a home of their own (HOME and XDG_CACHE_HOME under one temporary folder),
// set here before the workers, and the processes they spawn, inherit it: nothing of the user's
// home is written, and the guard below watches that home, never the real one, so another program
// writing the user's ~/.cache while the suites run can't fail them. Every scan caches into
// SPEKY_CACHE_DIR; a file appearing in the suites' own ~/.cache/speky-ts means a process ignored it.
// Copied into the suites' home: the user's git identity (tests commit) and npm settings (tests
// install); npm's download cache stays the user's (npm_config_cache), so a run downloads nothing twice.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The suites' own home, with what the user's gives the tools the suites drive. */
function suiteHome(root: string): string {
  const realHome = os.homedir();
  const home = path.join(root, "home");
  mkdirSync(path.join(home, ".cache"), { recursive: true });
  for (const file of [".gitconfig", ".npmrc"]) {
    const from = path.join(realHome, file);
    if (existsSync(from)) copyFileSync(from, path.join(home, file));
  }
  if (!process.env.npm_config_cache) {
    const cache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout?.trim();
    process.env.npm_config_cache = cache || path.join(realHome, ".npm");
  }
  return home;
}

export default function setup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), "speky-test-"));
  const cacheDir = path.join(root, "scan-cache");
  mkdirSync(cacheDir);
  const home = suiteHome(root);
  process.env.SPEKY_CACHE_DIR = cacheDir;
  process.env.HOME = home;
  process.env.XDG_CACHE_HOME = path.join(home, ".cache");
  /** What src/fs/cache-dir.ts would use without SPEKY_CACHE_DIR, in the suites' home. */
  const userCache = path.join(home, ".cache", "speky-ts");
  const listing = () => {
    try {
      return readdirSync(userCache).sort();
    } catch {
      return [];
    }
  };
  // `speky check --format github` names files from $GITHUB_WORKSPACE when set: suites run in a
  // GitHub job get the same output as anywhere (a test that wants it sets it).
  delete process.env.GITHUB_WORKSPACE;
  const teardown = () => {
    // The guarantee itself: a run whose processes wrote the home cache fails, naming what they wrote.
    const written = listing();
    rmSync(root, { recursive: true, force: true });
    if (written.length > 0)
      throw new Error(`the suites wrote ${written.length} files into ${userCache}: ${written.slice(0, 5).join(", ")}`);
  };
  if (process.env.npm_lifecycle_event === "test") return teardown;
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: repo, stdio: "inherit" });
  // tsc still emits on type errors: say so, and let the suites run on what was emitted.
  if (build.status !== 0) console.warn(`global-setup: tsc exited ${build.status}; testing the emitted dist/ anyway`);
  // tsc rewrote every file: the build's cache key is written again for them, as `npm run build`
  // does (src/scan/cache/build-key.ts), or each scan of the suites would hash the scanner anew.
  spawnSync(process.execPath, [path.join(repo, "dist/scan/cache/build-key.js")], { cwd: repo, stdio: "inherit" });
  return teardown;
}
