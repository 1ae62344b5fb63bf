// `source_links` with `branch: auto` in a repository with no commit yet (a new project, a
// pre-commit hook on the first commit): `git rev-parse --abbrev-ref HEAD` fails there. The links
// use the branch the first commit goes to, with a warning, instead of no links at all.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSpeky, tempDir } from "../support/process.js";

function repository(initArgs: string[], gitConfig: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir();
  const config = path.join(dir, "gitconfig");
  writeFileSync(config, gitConfig);
  const env = { GIT_CONFIG_GLOBAL: config, GIT_CONFIG_NOSYSTEM: "1" };
  const repo = path.join(dir, "repo");
  mkdirSync(path.join(repo, "src"), { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: { ...process.env, ...env } });
  git("init", "-q", ...initArgs);
  git("remote", "add", "origin", "git@example.com:org/shop.git");
  writeFileSync(
    path.join(repo, "speky.yaml"),
    "kind: project\nname: shop\nfiles: [reqs.yaml]\ncode_sources: ['src/*.py']\nsource_links:\n  url: auto\n",
  );
  writeFileSync(path.join(repo, "reqs.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: REQ-1\n    long: One.\n");
  writeFileSync(path.join(repo, "src/cart.py"), "# speky:shop#REQ-1\ndef add():\n    pass\n");
  return { dir: repo, env };
}

describe("source_links in a repository without commits", () => {
  // speky:speky-ts#TSPEC-LINKS-UNBORN
  it.for([
    { init: ["-b", "trunk"], config: "", branch: "trunk" },
    { init: [], config: "[init]\n  defaultBranch = develop\n", branch: "develop" },
  ])("links to the branch of the first commit ($branch), with a warning", ({ init, config, branch }) => {
    const { dir, env } = repository(init, config);
    const scan = JSON.parse(runSpeky(["scan"], dir, env).stdout);
    expect(scan.references.map((r: { url: string }) => r.url)).toEqual([`https://example.com/org/shop/blob/${branch}/src/cart.py#L2`]);
    const check = runSpeky(["check"], dir, env);
    expect(check.stdout).toBe(
      `speky.yaml:6:3: warning: source_links: the git repository has no commit yet; links use the branch '${branch}', where its first commit goes\n` +
        "0 errors, 1 warning in 3 files\n",
    );
    expect(check.status).toBe(0);
  });
});
