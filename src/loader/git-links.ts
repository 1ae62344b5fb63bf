// `source_links` of a manifest, with `auto` read from git as speky reads it.
import { execFile } from "node:child_process";
import path from "node:path";
import { quote } from "../quote.js";
import type { SourceLinks } from "./types.js";

export type LinksResult = { links: SourceLinks; warning?: string } | { problem: string };

/** `git@host:org/repo.git` to `https://host/org/repo`, as speky writes remote URLs. */
export function normalizeRemoteUrl(url: string): string {
  const ssh = /^git@([^:]+):(.*)$/.exec(url);
  const https = ssh ? `https://${ssh[1]}/${ssh[2]}` : url;
  return https.endsWith(".git") ? https.slice(0, -".git".length) : https;
}

/** Resolves url and branch (`auto` or given) and the git work tree containing dir. */
export async function resolveSourceLinks(url: string, branch: string, dir: string): Promise<LinksResult> {
  const [remote, head, cdup] = await Promise.all([
    url === "auto" ? git(dir, "remote", "get-url", "origin") : { out: url },
    branch === "auto" ? git(dir, "rev-parse", "--abbrev-ref", "HEAD") : { out: branch },
    // The root as a path relative to dir, so that it shares dir's form (symbolic links kept).
    git(dir, "rev-parse", "--show-cdup"),
  ]);
  if ("error" in remote) return { problem: `cannot read the git remote URL (${remote.error})` };
  if ("error" in cdup) return { problem: `cannot find the git work tree (${cdup.error})` };
  // A repository with no commit yet has no HEAD to read: the branch its first commit goes to.
  const unborn = "error" in head ? await unbornBranch(dir) : null;
  if ("error" in head && unborn === null) return { problem: `cannot read the current git branch (${head.error})` };
  const links = {
    url: url === "auto" ? normalizeRemoteUrl(remote.out) : url,
    branch: unborn ?? (head as { out: string }).out,
    gitRoot: path.resolve(dir, cdup.out),
  };
  if (unborn === null) return { links };
  return { links, warning: `the git repository has no commit yet; links use the branch ${quote(unborn)}, where its first commit goes` };
}

// speky:speky-ts#SPEC-LINKS-UNBORN
/**
 * The branch of a repository without commits: the one HEAD names (git init set it from
 * init.defaultBranch, or -b), else init.defaultBranch, else `main`; null when HEAD is not
 * unborn (not a git repository, or another failure).
 */
async function unbornBranch(dir: string): Promise<string | null> {
  const [symbolic, any] = await Promise.all([
    git(dir, "symbolic-ref", "--short", "-q", "HEAD"),
    git(dir, "rev-parse", "-q", "--verify", "HEAD"),
  ]);
  if ("out" in any) return null;
  if ("out" in symbolic && symbolic.out !== "") return symbolic.out;
  const configured = await git(dir, "config", "--get", "init.defaultBranch");
  return "out" in configured && configured.out !== "" ? configured.out : "main";
}

function git(cwd: string, ...args: string[]): Promise<{ out: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, timeout: 10_000 }, (err, stdout, stderr) => {
      if (err) {
        const reason = String(stderr).trim().split("\n")[0] || err.message.split("\n")[0];
        resolve({ error: `git ${args.join(" ")}: ${reason}` });
      } else resolve({ out: String(stdout).trim() });
    });
  });
}
