// When and from which commit a report was made: the one line of the report that is not
// determined by its input. SOURCE_DATE_EPOCH fixes the time for reproducible builds.
import { runGit } from "../git/run-git.js";
import type { Generation } from "./data.js";

/** `git rev-parse HEAD` only, run as every git command is (src/git/run-git.ts): no hook, no fsmonitor, no pager. */
async function headCommit(dir: string): Promise<string | null> {
  const result = await runGit(dir, ["rev-parse", "--verify", "--quiet", "HEAD"], { timeoutMs: 10_000, maxBytes: 4096 });
  const hash = result.ok ? result.stdout.toString("utf8").trim() : "";
  return /^[0-9a-f]{40,64}$/.test(hash) ? hash : null;
}

export async function generation(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<Generation> {
  const epoch = env.SOURCE_DATE_EPOCH;
  const date = epoch && /^\d{1,12}$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return { time: date.toISOString().replace(/\.\d{3}Z$/, "Z"), commit: await headCommit(dir) };
}
