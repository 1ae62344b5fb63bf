// The plugin's copy, built once whoever asks: a lock folder in the data folder lets one detached
// worker build (copy.mjs) while every start that needs the copy waits for its mark, relaying the
// build's log on stderr. The worker is detached so that a client that gives up waiting (Claude
// Code's 30 s connect time-out) does not stop the build: its next start finds the copy built.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildCopy, copyDir, copyKey, doneMark, failedMark, InstallError, logFile, STEP_TIMEOUT_MS } from "./copy.mjs";

/** The launcher, which runs the worker as `launch.mjs --install-worker ROOT DATA KEY`. */
const LAUNCHER = fileURLToPath(new URL("./launch.mjs", import.meta.url));

export const say = (line) => process.stderr.write(`speky-ts plugin: ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lock older than this is taken over: three steps at their bound, and a margin. */
const STALE_LOCK_MS = 3 * STEP_TIMEOUT_MS + 60_000;
/** A start waits for the copy this long at most. */
const MAX_WAIT_MS = STALE_LOCK_MS + 60_000;
const POLL_MS = 250;

const lockDir = (data) => path.join(data, "install.lock");

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Whether a live worker holds the lock; a stale lock (dead owner, or older than the bound) is removed. */
export function lockHeld(data) {
  const dir = lockDir(data);
  let owner;
  try {
    owner = JSON.parse(readFileSync(path.join(dir, "owner.json"), "utf8"));
  } catch {
    // Just made, owner not written yet; or damaged: judged by the folder's age.
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (stat === undefined) return false;
    if (Date.now() - stat.mtimeMs < 10_000) return true;
    owner = { pid: -1, started: stat.mtimeMs };
  }
  if (owner.pid > 0 && alive(owner.pid) && Date.now() - owner.started < STALE_LOCK_MS) return true;
  rmSync(dir, { recursive: true, force: true });
  return false;
}

function takeLock(data) {
  try {
    mkdirSync(lockDir(data));
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  }
  writeFileSync(path.join(lockDir(data), "owner.json"), JSON.stringify({ pid: process.pid, started: Date.now() }));
  return true;
}

/** The worker (`--install-worker ROOT DATA KEY`, detached, its output in the log): builds the copy unless another does. */
export async function installWorker(root, data, key) {
  if (!takeLock(data)) return 0;
  try {
    if (existsSync(doneMark(data, key))) return 0;
    rmSync(failedMark(data, key), { force: true });
    const started = Date.now();
    console.error(`building speky-ts ${key} from ${root}`);
    await buildCopy(root, data, key, 2);
    console.error(`built in ${Math.round((Date.now() - started) / 1000)} s`);
    return 0;
  } catch (error) {
    const message = error instanceof InstallError ? error.message : (error?.stack ?? String(error));
    console.error(message);
    writeFileSync(failedMark(data, key), `${message}\n`);
    return 1;
  } finally {
    rmSync(lockDir(data), { recursive: true, force: true });
  }
}

/** Copies what the worker adds to the log onto our stderr, from byte `from`; the new position. */
function relayLog(file, from) {
  let fd;
  try {
    fd = openSync(file, "r");
  } catch {
    return from;
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    let position = from;
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, position)) > 0; position += n) process.stderr.write(buffer.subarray(0, n));
    return position;
  } finally {
    closeSync(fd);
  }
}

// speky:speky-ts#PLUGIN-LAUNCHER
/** The built copy's folder: at once when built, else after a worker (ours or another start's) built it. */
export async function ensureCopy(root, data) {
  const key = copyKey(root);
  if (existsSync(doneMark(data, key))) return copyDir(data, key);
  mkdirSync(data, { recursive: true });
  say(`building its copy of speky-ts (${key}) in ${copyDir(data, key)}: once per version, a minute or two; log: ${logFile(data)}`);
  const deadline = Date.now() + MAX_WAIT_MS;
  let worker = null;
  let relayed = 0;
  while (Date.now() < deadline) {
    if (existsSync(doneMark(data, key))) {
      relayLog(logFile(data), relayed);
      say("copy built");
      return copyDir(data, key);
    }
    if (!lockHeld(data)) {
      if (worker?.exited) {
        relayLog(logFile(data), relayed);
        const failed = existsSync(failedMark(data, key))
          ? readFileSync(failedMark(data, key), "utf8").trim()
          : `the install stopped (exit ${worker.code})`;
        throw new InstallError(`could not build speky-ts: ${failed} (log: ${logFile(data)})`);
      }
      if (worker === null) {
        worker = startWorker(root, data, key);
        relayed = 0;
      }
    }
    relayed = relayLog(logFile(data), relayed);
    await sleep(POLL_MS);
  }
  throw new InstallError(`the copy of speky-ts was not built within ${Math.round(MAX_WAIT_MS / 60_000)} minutes (log: ${logFile(data)})`);
}

export function startWorker(root, data, key) {
  const log = openSync(logFile(data), "w");
  const child = spawn(process.execPath, [LAUNCHER, "--install-worker", root, data, key], {
    detached: true,
    stdio: ["ignore", log, log],
    windowsHide: true,
  });
  closeSync(log);
  const state = { exited: false, code: null };
  child.once("exit", (code) => Object.assign(state, { exited: true, code }));
  child.once("error", (error) => Object.assign(state, { exited: true, code: error.message }));
  // The worker outlives us if the client stops us: it is not waited for at exit.
  child.unref();
  return state;
}
