// `source_links` of a manifest, with `auto` read from git as speky reads it.
import { execFile } from "node:child_process";
import path from "node:path";
import type { SourceLinks } from "./types.js";

export type LinksResult = { links: SourceLinks } | { problem: string };

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
  if ("error" in head) return { problem: `cannot read the current git branch (${head.error})` };
  if ("error" in cdup) return { problem: `cannot find the git work tree (${cdup.error})` };
  return {
    links: {
      url: url === "auto" ? normalizeRemoteUrl(remote.out) : url,
      branch: head.out,
      gitRoot: path.resolve(dir, cdup.out),
    },
  };
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
