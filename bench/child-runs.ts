// How the main run (main-run.ts) times what it measures: the built CLI (bin/speky.js) as a
// child process, like users run it, from spawn to exit, with its peak RSS from /usr/bin/time;
// each timing is the best of a few runs (the machine is shared), the peak RSS the worst.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = path.join(PACKAGE_ROOT, "bin/speky.js");
const TIME = "/usr/bin/time";

export interface TimedRun {
  ms: number;
  /** CPU (user + system) of the child, from /usr/bin/time; null without it. */
  cpuMs: number | null;
  /** Peak RSS of the child (all its threads), from /usr/bin/time; null without it. */
  rssMb: number | null;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One child process, timed from spawn to exit; CPU and peak RSS from /usr/bin/time when it is there. */
export function runTimed(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): TimedRun {
  const timed = existsSync(TIME);
  const started = performance.now();
  const child = spawnSync(timed ? TIME : command, timed ? ["-f", "@@time %U %S %M", command, ...args] : args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  let stderr = child.stderr ?? "";
  let cpuMs: number | null = null;
  let rssMb: number | null = null;
  const m = /@@time ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
  if (m) {
    cpuMs = (Number(m[1]) + Number(m[2])) * 1000;
    rssMb = Number(m[3]) / 1024;
    stderr = stderr.slice(0, m.index);
  }
  return { ms, cpuMs, rssMb, status: child.status, stdout: child.stdout ?? "", stderr };
}

/** `speky ARGS` of this build, timed; a throw on any exit but 0 and 1. */
export function runSpeky(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): TimedRun {
  const r = runTimed(process.execPath, [BIN, ...args], env, cwd);
  if (r.status !== 0 && r.status !== 1) throw new Error(`speky ${args.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  return r;
}

export function fastest(runs: TimedRun[]): TimedRun {
  return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
}

export function peakRss(runs: TimedRun[]): number | null {
  const values = runs.map((r) => r.rssMb).filter((v): v is number => v !== null);
  return values.length ? Math.max(...values) : null;
}
