// The trees of fixtures/myst, laid out as scripts/speky-golden.mjs lays them for speky.
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import path from "node:path";
import { REPO, tempDir } from "./process.js";

export const FIXTURES = path.join(REPO, "fixtures/myst");

/** The fixture tree in a fresh git repository, as scripts/speky-golden.mjs lays it. */
export function gitTree(tree: string): string {
  const dir = tempDir();
  cpSync(path.join(FIXTURES, tree), dir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", ...args], {
      cwd: dir,
      env,
      stdio: "pipe",
    });
  git("init", "-q");
  git("remote", "add", "origin", "git@example.invalid:org/shop.git");
  git("add", "-A");
  git("commit", "-qm", "fixture");
  return dir;
}
