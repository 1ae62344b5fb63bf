// When and from which commit a report was made: the one line of the report that is not
// determined by its input. SOURCE_DATE_EPOCH fixes the time for reproducible builds.
import { execFile } from "node:child_process";
import type { Generation } from "./data.js";

/** `git rev-parse HEAD` only: it runs no hook and reads no fsmonitor of a hostile repository. */
function headCommit(dir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: dir, timeout: 10_000 }, (err, stdout) => {
      const hash = String(stdout).trim();
      resolve(!err && /^[0-9a-f]{40,64}$/.test(hash) ? hash : null);
    });
  });
}

export async function generation(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<Generation> {
  const epoch = env.SOURCE_DATE_EPOCH;
  const date = epoch && /^\d{1,12}$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return { time: date.toISOString().replace(/\.\d{3}Z$/, "Z"), commit: await headCommit(dir) };
}
