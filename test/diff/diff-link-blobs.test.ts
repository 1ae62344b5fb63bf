// Issue 48, git blobs in `speky diff`: a symbolic-link blob no file system takes (a NUL byte,
// a target of 200 MB) is a warning at its file and the comparison goes on; its bytes are never
// held past PATH_MAX; and no lazy fetch of a partial clone runs, whatever the repository's
// configuration allows, even on a git that ignores GIT_NO_LAZY_FETCH.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { markdownReport } from "../../src/diff/format-markdown.js";
import { textReport } from "../../src/diff/format-text.js";
import { LINK_HOLDS_NUL, LINK_TOO_LONG } from "../../src/git/blobs.js";
import { gitEnvironment, safeGitArgs } from "../../src/git/run-git.js";
import { cacheEnv, GitRepo, removeScratch, scratch } from "../support/git-repo.js";
import { call, connect } from "../support/mcp.js";
import { runSpekyMeasured } from "../support/measured.js";
import { runSpeky } from "../support/process.js";

afterAll(removeScratch);

const T = "speky" + ":";
const FILES = {
  "speky.yaml": 'kind: project\nname: shop\nfiles: [reqs.yaml]\ncode_sources: ["src/**/*.py"]\n',
  "reqs.yaml": "kind: requirements\ncategory: cart\nrequirements:\n  - id: REQ-1\n    long: One.\n",
  "src/ok.py": `# ${T}shop#REQ-1\ndef ok():\n    pass\n`,
};
const AUTHOR = ["-c", "user.name=Speky Tests", "-c", "user.email=tests@speky.invalid"];

/**
 * Commits `add` (git add's arguments: the whole work tree by default) plus link entries whose
 * blobs are a shell command's output each (no work tree can hold such links).
 */
function commitLinks(repo: GitRepo, links: Record<string, string>, message: string, add = ["-A"]): string {
  repo.git("add", ...add);
  for (const [name, command] of Object.entries(links)) {
    const oid = execFileSync("sh", ["-c", `${command} | git hash-object -w --stdin`], { cwd: repo.dir, encoding: "utf8" }).trim();
    repo.git("update-index", "--add", "--cacheinfo", `120000,${oid},${name}`);
  }
  repo.git(...AUTHOR, "commit", "-q", "-m", message);
  return repo.git("rev-parse", "HEAD").trim();
}

const warning = (file: string, message: string) => ({ file, line: 0, column: 0, severity: "warning", message });

describe("link blobs no file system takes", () => {
  // speky:speky-ts#TDIFF-LINK-NUL
  it("are a warning at their file, on either side, kept with the snapshot, and the comparison goes on", async () => {
    const repo = GitRepo.init(FILES);
    repo.commit("clean");
    commitLinks(
      repo,
      { "src/evil": "printf 'a\\000b'", "src/also": "printf 'x\\000'", "src/long": "head -c 5000 /dev/zero | tr '\\0' a" },
      "links",
    );
    repo.write({ "src/ok.py": `${FILES["src/ok.py"]}\ndef more():\n    pass\n` });
    commitLinks(repo, {}, "more", ["src/ok.py"]);
    repo.write({ "src/new.py": `# ${T}shop#REQ-1\ndef g():\n    pass\n` });
    const three = [warning("src/also", LINK_HOLDS_NUL), warning("src/evil", LINK_HOLDS_NUL), warning("src/long", LINK_TOO_LONG)];
    const env = cacheEnv();
    const diff = (args: string[], e = env) => {
      const r = runSpeky(["diff", ...args], repo.dir, e);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      return r;
    };
    const head = diff(["main~2", "main~1", "--format", "json"]);
    expect(head.status, head.stderr).toBe(0);
    expect(JSON.parse(head.stdout).warnings).toEqual({ head: three });
    const base = diff(["main", "--format", "json"]);
    expect(base.status, base.stderr).toBe(0);
    const doc = JSON.parse(base.stdout);
    expect(doc.warnings).toEqual({ base: three });
    expect(doc.code_references.added).toEqual([{ id: "REQ-1", project: "shop", file: "src/new.py", line: 2, symbol: "g", is_test: false }]);
    // A rerun (the snapshot held already) and a slot brought from main~1 to main say the same.
    expect(diff(["main", "--format", "json"]).stdout).toBe(base.stdout);
    const other = cacheEnv();
    diff(["main~1", "--format", "json"], other);
    expect(diff(["main", "--format", "json"], other).stdout).toBe(base.stdout);
    // The text and Markdown forms of the same document.
    expect(textReport(doc)).toContain(
      `the base side's files not compared (3 files):\n  src/also: warning: ${LINK_HOLDS_NUL}\n  src/evil: warning: ${LINK_HOLDS_NUL}\n`,
    );
    expect(markdownReport(doc, () => undefined)).toContain(
      "**Files of the base side not compared** (3 files):\n\n- `src/also`: a symbolic link",
    );
    const session = await connect(["speky.yaml", "--no-watch"], { cwd: repo.dir });
    try {
      const answer = await call(session.client, "changes_since", { base: "main" });
      expect(answer.isError).toBe(false);
      expect((answer.structured as { warnings: unknown }).warnings).toEqual({ base: three });
    } finally {
      await session.close();
    }
  });

  // speky:speky-ts#TDIFF-LINK-BOUND
  it("never hold a 200 MB link target in memory", () => {
    const repo = GitRepo.init(FILES);
    repo.commit("clean");
    commitLinks(repo, { "src/huge": "head -c 200000000 /dev/zero" }, "huge link");
    const objects = path.join(repo.dir, ".git/objects");
    const gitBytes = readdirSync(objects, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
    expect(gitBytes).toBeLessThan(5_000_000);
    const run = runSpekyMeasured(["diff", "main", "--format", "json"], repo.dir);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).warnings).toEqual({ base: [warning("src/huge", LINK_TOO_LONG)] });
    // Reading the target whole took 1,064 MB; a diff of this tree takes about a tenth of that.
    expect(run.peakMB).toBeLessThan(400);
  });
});

describe("a partial clone's lazy fetch", () => {
  // speky:speky-ts#TDIFF-NO-FETCH
  it("is refused by every protocol's own setting, whatever the repository allows, even where GIT_NO_LAZY_FETCH is ignored", () => {
    const origin = GitRepo.init(FILES);
    origin.commit("base");
    origin.git("config", "uploadpack.allowFilter", "true");
    const clone = path.join(scratch("speky-diff-partial-"), "clone");
    execFileSync("git", ["clone", "-q", "--filter=blob:none", "--no-checkout", `file://${origin.dir}`, clone], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    });
    const git = (args: string[], env: NodeJS.ProcessEnv) => spawnSync("git", args, { cwd: clone, env, encoding: "utf8", input: "" });
    const isolated = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
    // The repository says: fetch over any protocol, from a file remote.
    for (const name of ["file", "git", "ssh", "http", "https", "ext"]) git(["config", `protocol.${name}.allow`, "always"], isolated);
    git(["config", "protocol.allow", "always"], isolated);
    const blob = git(["rev-parse", "HEAD:src/ok.py"], isolated).stdout.trim();
    // As an old git runs: GIT_NO_LAZY_FETCH unknown to it.
    const { GIT_NO_LAZY_FETCH: _, ...oldGit } = gitEnvironment(isolated);
    const ours = spawnSync("git", safeGitArgs(["cat-file", "--batch"]), { cwd: clone, env: oldGit, encoding: "utf8", input: `${blob}\n` });
    expect(ours.stdout).not.toContain("def ok()");
    expect(ours.stderr).toContain("not allowed");
    // The blob is still missing: nothing was fetched.
    expect(git(["cat-file", "-e", blob], { ...isolated, GIT_NO_LAZY_FETCH: "1" }).status).not.toBe(0);
    // The same command without our settings fetches it: the repository above is live.
    const plain = spawnSync("git", ["cat-file", "--batch"], { cwd: clone, env: isolated, encoding: "utf8", input: `${blob}\n` });
    expect(plain.stdout).toContain("def ok()");
  });
});
