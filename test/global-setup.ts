// Suites run the built binaries (dist/): build once before any of them. `npm test` already
// built in its pretest step, so a run started by it skips this.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  if (process.env.npm_lifecycle_event === "test") return;
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: repo, stdio: "inherit" });
}
