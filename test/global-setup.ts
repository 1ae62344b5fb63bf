// Suites run the built binaries (dist/): build once before any of them. `npm test` already
// built in its pretest step (where a type error fails the run), so a run started by it skips this.
// Every suite's scans cache into one temporary folder, never the user's ~/.cache/speky-ts: the
// variable is set here, before the workers (and the processes they spawn) inherit it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The user's own cache folder, as src/scan/cache/cache-dir.ts finds it without SPEKY_CACHE_DIR. */
const userCache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "speky-ts");
const listing = () => {
  try {
    return readdirSync(userCache).sort();
  } catch {
    return [];
  }
};

export default function setup(): () => void {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), "speky-test-cache-"));
  process.env.SPEKY_CACHE_DIR = cacheDir;
  // `speky check --format github` names files from $GITHUB_WORKSPACE when set: suites run in a
  // GitHub job get the same output as anywhere (a test that wants it sets it).
  delete process.env.GITHUB_WORKSPACE;
  const before = new Set(listing());
  const teardown = () => {
    rmSync(cacheDir, { recursive: true, force: true });
    // The guarantee itself: a run that wrote the user's cache fails, naming what it wrote.
    const written = listing().filter((f) => !before.has(f));
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
