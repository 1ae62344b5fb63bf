// Suites run the built binaries (dist/): build once before any of them. `npm test` already
// built in its pretest step (where a type error fails the run), so a run started by it skips this.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  if (process.env.npm_lifecycle_event === "test") return;
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: repo, stdio: "inherit" });
  // tsc still emits on type errors: say so, and let the suites run on what was emitted.
  if (build.status !== 0) console.warn(`global-setup: tsc exited ${build.status}; testing the emitted dist/ anyway`);
}
