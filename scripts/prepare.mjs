// `npm run prepare`: build dist/ where the package is installed from source (a git URL, as
// pre-commit does, or a clone). npm runs it after installing the dependencies, devDependencies
// included (TypeScript) — except in `npm install -g git+...`, where npm installs them into the
// global prefix instead of here. Then this installs them here first, from the lockfile.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`prepare: ${path.basename(command)} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}

if (!existsSync(tsc)) {
  const npm = process.env.npm_execpath;
  if (!npm) {
    console.error("prepare: TypeScript is not installed and npm is unknown; run `npm ci` first");
    process.exit(1);
  }
  // Local, whatever the outer command's -g and prefix; no scripts (no prepare loop).
  run(process.execPath, [npm, "ci", "--global=false", `--prefix=${root}`, "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund"]);
}
// The package's own build script (tsc, then what follows it), with node_modules/.bin on PATH.
const npmCli = process.env.npm_execpath;
if (npmCli) run(process.execPath, [npmCli, "run", "build", `--prefix=${root}`]);
else run("npm", ["run", "build", `--prefix=${root}`]);
