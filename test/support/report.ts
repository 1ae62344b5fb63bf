// Report fixtures in a real git repository (the report names its commit; source_links need one).
import { execFileSync } from "node:child_process";
import { copyFixture } from "./process.js";

/** A copy of fixtures/report/NAME in a fresh git repository with one commit of fixed dates. */
export function reportFixture(name: string): string {
  const dir = copyFixture(`report/${name}`);
  const env = { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", ...args], {
      cwd: dir,
      env,
      stdio: "pipe",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "fixture");
  return dir;
}
