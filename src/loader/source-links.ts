// `source_links` of a manifest, with `auto` read from git as speky reads it.

import path from "node:path";
import { gitWorkTree } from "../fs/boundary.js";
import { realOrResolved } from "../fs/paths.js";
import { runGit } from "../git/run-git.js";
import { quote } from "../quote.js";
import type { SourceLinks } from "./types.js";

export type LinksResult = { links: SourceLinks; warning?: string } | { problem: string };
type Answer = { out: string } | { error: string };

/** Git processes running at once for one load (150 manifests started 450 at once: issue 25). */
export const MAX_GIT_PROCESSES = 4;

/** `git@host:org/repo.git` to `https://host/org/repo`, as speky writes remote URLs; never with credentials. */
export function normalizeRemoteUrl(url: string): string {
  const ssh = /^git@([^:]+):(.*)$/.exec(url);
  const https = withoutCredentials(ssh ? `https://${ssh[1]}/${ssh[2]}` : url);
  return https.endsWith(".git") ? https.slice(0, -".git".length) : https;
}

// speky:speky-ts#SEC-GIT-CREDENTIALS
/**
 * A URL from git without what may be a secret: the user information (`https://user:TOKEN@host/`,
 * `ssh://TOKEN@host/`, `TOKEN@host:path`), the query and the fragment. Git keeps tokens there
 * (credential-less clones in CI write them into `remote.origin.url`); the URL goes into scan
 * JSON, MCP answers and report links, so nothing of it may be a credential.
 */
export function withoutCredentials(url: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url);
  if (scheme) {
    const rest = url.slice(scheme[0].length);
    const end = rest.search(/[/?#]/);
    const authority = end < 0 ? rest : rest.slice(0, end);
    const tail = end < 0 ? "" : rest.slice(end);
    return scheme[0] + authority.slice(authority.lastIndexOf("@") + 1) + tail.replace(/[?#].*$/s, "");
  }
  // scp-like `user@host:path`: the user part goes, the rest stays as written.
  const scp = /^[^/:]*@([^/]*:.*)$/s.exec(url);
  return (scp ? scp[1] : url).replace(/[?#].*$/s, "");
}

// speky:speky-ts#SEC-GIT-ONCE
/**
 * Git's answers for one load: each question asked once per repository (the nearest folder with
 * a `.git`, which is where git's own discovery from any folder below it ends), at most
 * MAX_GIT_PROCESSES processes at a time. One per load, never longer: a branch may change
 * between two loads of a server.
 */
export class GitQuestions {
  private readonly answers = new Map<string, Promise<Answer>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * Git's answer for any folder of `realDir`'s repository: asked in the first such folder (git
   * runs where a manifest is, as before: GIT_CEILING_DIRECTORIES and the like still apply).
   */
  ask(realDir: string, ...args: string[]): Promise<Answer> {
    const key = `${gitWorkTree(realDir) ?? realDir}\0${args.join("\0")}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.run(realDir, args);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async run(cwd: string, args: string[]): Promise<Answer> {
    if (this.running >= MAX_GIT_PROCESSES) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await git(cwd, args);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** Resolves url and branch (`auto` or given) and the git work tree containing dir. */
export async function resolveSourceLinks(
  url: string,
  branch: string,
  dir: string,
  questions: GitQuestions = new GitQuestions(),
): Promise<LinksResult> {
  const realDir = realOrResolved(dir);
  const [remote, head, top] = await Promise.all([
    url === "auto" ? questions.ask(realDir, "remote", "get-url", "origin") : { out: url },
    branch === "auto" ? questions.ask(realDir, "rev-parse", "--abbrev-ref", "HEAD") : { out: branch },
    questions.ask(realDir, "rev-parse", "--show-toplevel"),
  ]);
  if ("error" in remote) return { problem: `cannot read the git remote URL (${remote.error})` };
  if ("error" in top) return { problem: `cannot find the git work tree (${top.error})` };
  // A repository with no commit yet has no HEAD to read: the branch its first commit goes to.
  const unborn = "error" in head ? await unbornBranch(realDir, questions) : null;
  if ("error" in head && unborn === null) return { problem: `cannot read the current git branch (${head.error})` };
  const links = {
    url: url === "auto" ? normalizeRemoteUrl(remote.out) : url,
    branch: unborn ?? (head as { out: string }).out,
    // The root in dir's own form (symbolic links kept): dir, up as many levels as git's real root is.
    gitRoot: path.resolve(dir, path.relative(realDir, top.out)),
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
async function unbornBranch(realDir: string, questions: GitQuestions): Promise<string | null> {
  const [symbolic, any] = await Promise.all([
    questions.ask(realDir, "symbolic-ref", "--short", "-q", "HEAD"),
    questions.ask(realDir, "rev-parse", "-q", "--verify", "HEAD"),
  ]);
  if ("out" in any) return null;
  if ("out" in symbolic && symbolic.out !== "") return symbolic.out;
  const configured = await questions.ask(realDir, "config", "--get", "init.defaultBranch");
  return "out" in configured && configured.out !== "" ? configured.out : "main";
}

/** git as everywhere (src/git/run-git.ts: no configuration of the repository's may run a command). */
async function git(cwd: string, args: string[]): Promise<Answer> {
  const result = await runGit(cwd, args, { timeoutMs: 10_000, maxBytes: 1024 * 1024 });
  if (result.ok) return { out: result.stdout.toString("utf8").trim() };
  // git's message may quote a remote URL with its credentials.
  return { error: `git ${args.join(" ")}: ${result.reason.replace(/[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"]*/g, withoutCredentials)}` };
}
