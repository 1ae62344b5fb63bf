// The plugin's own copy of speky-ts, built from the plugin's files into the plugin's data folder
// (${CLAUDE_PLUGIN_DATA}): what is built, under which key, and the install itself. The
// plugin folder is replaced on every update and may be read-only; the data folder stays. A copy
// is keyed by the content of the files it is built from, so an update (a new version, or a new
// commit of a git marketplace at the same version) builds a new copy and an unchanged plugin
// never builds twice. Everything here writes to stderr or a log file, never to stdout (the MCP
// channel). No dependency: this runs before anything is installed.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

// speky:speky-ts#PLUGIN-COPY
/** What the build reads: the copy holds these and nothing else (no tests, fixtures, .git). */
export const INPUTS = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "LICENSE",
  "bin",
  "src",
  "scripts",
  "grammars",
  "schema",
  "plugin",
];
/** Build output inside the inputs: never copied, never part of the key. */
const SKIPPED = new Set(["grammars/wasm"]);

/** Bounds on the plugin's files: the plugin folder is ours, but a damaged one must not hang a start. */
export const MAX_INPUT_FILES = 5000;
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;
/** Each npm step (ci, build, prune), at most. */
export const STEP_TIMEOUT_MS = 15 * 60_000;
/** Copies kept: the current one and the one before it (a server of the previous version may still run from it). */
const KEPT_COPIES = 2;

export class InstallError extends Error {}

/** The plugin's input files, relative, sorted; links and special files refused. */
export function inputFiles(root) {
  const files = [];
  let bytes = 0;
  const visit = (rel) => {
    if (SKIPPED.has(rel)) return;
    const abs = path.join(root, rel);
    const stat = lstatSync(abs, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(abs).sort()) visit(`${rel}/${name}`);
    } else if (stat.isFile()) {
      files.push(rel);
      bytes += stat.size;
      if (files.length > MAX_INPUT_FILES || bytes > MAX_INPUT_BYTES) {
        throw new InstallError(
          `the plugin folder ${root} holds more than ${MAX_INPUT_FILES} files or ${MAX_INPUT_BYTES >> 20} MB to build from`,
        );
      }
    } else {
      throw new InstallError(`${abs} is not a regular file or folder (a link?): the plugin's files are copied as they are`);
    }
  };
  for (const name of INPUTS) visit(name);
  if (!files.includes("package.json") || !files.includes("package-lock.json")) {
    throw new InstallError(`${root} is not a speky-ts plugin folder: it has no package.json and package-lock.json`);
  }
  return files;
}

/** The copy's key: the version, then a digest of every input's path and bytes. */
export function copyKey(root, files = inputFiles(root)) {
  const hash = createHash("sha256");
  for (const rel of files) {
    const bytes = readFileSync(path.join(root, rel));
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const safe = String(version)
    .replace(/[^0-9A-Za-z.-]/g, "_")
    .slice(0, 40);
  return `${safe}-${hash.digest("hex").slice(0, 16)}`;
}

export const copiesDir = (data) => path.join(data, "copies");
export const copyDir = (data, key) => path.join(copiesDir(data), key);
/** Written last, once the copy is built: a copy without it is not used. */
export const doneMark = (data, key) => path.join(copyDir(data, key), ".installed");
export const failedMark = (data, key) => path.join(data, `failed-${key}.txt`);
export const logFile = (data) => path.join(data, "install.log");

/** The npm command line: the npm beside this Node first (the client's PATH may lack it), else `npm`. */
function npmCommand() {
  const beside = [
    path.join(path.dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js"),
    path.join(path.dirname(process.execPath), "node_modules/npm/bin/npm-cli.js"),
  ].find((p) => existsSync(p));
  if (beside) return { command: process.execPath, prefix: [beside], shell: false };
  return { command: process.platform === "win32" ? "npm.cmd" : "npm", prefix: [], shell: process.platform === "win32" };
}

/** One step, its output into `log` (a file descriptor), bounded in time. */
function step(args, cwd, log) {
  const npm = npmCommand();
  const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
  return new Promise((resolve, reject) => {
    const child = spawn(npm.command, [...npm.prefix, ...args], {
      cwd,
      env,
      stdio: ["ignore", log, log],
      shell: npm.shell,
      windowsHide: true,
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new InstallError(`npm ${args[0]}: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new InstallError(`npm ${args.join(" ")} ${signal ? `was stopped after ${STEP_TIMEOUT_MS / 60_000} minutes` : `exited ${code}`}`),
        );
    });
  });
}

/**
 * Builds the copy `key` from `root` (run under the install lock): the inputs copied into a
 * partial folder, `npm ci` (no install scripts: the package needs none), the build, the
 * devDependencies pruned, then the folder renamed into place and marked done.
 */
export async function buildCopy(root, data, key, log) {
  const copies = copiesDir(data);
  mkdirSync(copies, { recursive: true });
  // Partial folders of an install that was stopped: nothing else writes here while we hold the lock.
  for (const name of readdirSync(copies)) if (name.includes(".partial")) rmSync(path.join(copies, name), { recursive: true, force: true });
  const partial = path.join(copies, `${key}.partial`);
  for (const rel of inputFiles(root)) {
    mkdirSync(path.dirname(path.join(partial, rel)), { recursive: true });
    writeFileSync(path.join(partial, rel), readFileSync(path.join(root, rel)));
  }
  await step(["ci", "--ignore-scripts", "--include=dev", "--no-audit", "--no-fund"], partial, log);
  await step(["run", "build"], partial, log);
  await step(["prune", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], partial, log);
  rmSync(copyDir(data, key), { recursive: true, force: true });
  renameSync(partial, copyDir(data, key));
  writeFileSync(doneMark(data, key), `${JSON.stringify({ key, installed: new Date().toISOString() })}\n`);
  removeOldCopies(data, key);
}

/** Keeps the new copy and the most recent before it; older ones are removed. */
function removeOldCopies(data, key) {
  const copies = copiesDir(data);
  const others = readdirSync(copies)
    .filter((name) => name !== key && !name.includes(".partial"))
    .map((name) => ({ name, time: statSync(path.join(copies, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time || (a.name < b.name ? -1 : 1));
  for (const { name } of others.slice(KEPT_COPIES - 1)) rmSync(path.join(copies, name), { recursive: true, force: true });
}
