// `speky diff` through the built binary, on real git repositories built here: every section of
// docs/changes.md on the scenario of test/support/diff-scenario.ts, in both forms (the working tree
// and two revisions), with whole JSON documents compared, and byte-identical reruns.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyHeadChanges, BASE_FILES, expectedChanges, links, SECTION_HEADINGS } from "../support/diff-scenario.js";
import { cacheEnv, GitRepo, removeScratch, scratch } from "../support/git-repo.js";
import { runSpeky } from "../support/process.js";

afterAll(removeScratch);

describe("speky diff, the working tree against a revision", () => {
  let repo: GitRepo;
  let base: string;
  let env: Record<string, string>;
  beforeAll(() => {
    repo = GitRepo.init(BASE_FILES);
    base = repo.commit("base");
    applyHeadChanges(repo);
    repo.git("add", "src/tags/labels.py", "src/labels.py"); // a rename staged, the rest unstaged or untracked
    env = cacheEnv();
  });

  // speky:speky-ts#TDIFF-SECTIONS
  it("reports every section: items added, removed and changed, tags moved, coverage, impact on both sides, suspect, rerun", () => {
    const run = runSpeky(["diff", "main", "--format", "json"], repo.dir, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expectedChanges("main", base, "working tree"));
  });

  // speky:speky-ts#TDIFF-DETERMINISTIC
  it("prints byte-identical output on a rerun (the snapshot and the scan cache reused), and touches nothing of the repository", () => {
    const status = repo.git("status", "--porcelain");
    const head = repo.git("rev-parse", "HEAD");
    const index = statSync(path.join(repo.dir, ".git/index")).mtimeMs;
    const first = runSpeky(["diff", "main", "--format", "json"], repo.dir, env);
    const slots = path.join(env.SPEKY_CACHE_DIR, "diff-trees");
    const [folder] = readdirSync(slots);
    const snapshot = path.join(slots, folder, "0", "tree", "src/cart.py");
    const written = statSync(snapshot).mtimeMs;
    for (const format of ["json", "text", "markdown"]) {
      const a = runSpeky(["diff", "main", "--format", format], repo.dir, env);
      const b = runSpeky(["diff", "main", "--format", format], repo.dir, env);
      expect(a.status).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    }
    expect(runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout).toBe(first.stdout);
    // The base's snapshot was written once and reused, and its loaded side kept beside it.
    expect(statSync(snapshot).mtimeMs).toBe(written);
    const kept = path.join(slots, folder, "0", "side.json");
    const side = JSON.parse(readFileSync(kept, "utf8"));
    expect(side.scan.references.length).toBe(9);
    // A kept side of the wrong shape is not used: the side is loaded again, the answer the same.
    side.scan.references[0].line = "1";
    writeFileSync(kept, JSON.stringify(side));
    expect(runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout).toBe(first.stdout);
    writeFileSync(kept, "{not json");
    expect(runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout).toBe(first.stdout);
    // The repository is as it was.
    expect(repo.git("status", "--porcelain")).toBe(status);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(statSync(path.join(repo.dir, ".git/index")).mtimeMs).toBe(index);
    expect(repo.git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("runs from a subfolder, even one the base does not have, with the paths as given", () => {
    for (const [folder, manifest] of [
      ["src", "../speky.yaml"],
      ["src/tags", "../../speky.yaml"],
    ]) {
      const run = runSpeky(["diff", "main", manifest, "--format", "json"], path.join(repo.dir, folder), env);
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(expectedChanges("main", base, "working tree"));
    }
  });

  // speky:speky-ts#TDIFF-FORMATS
  it("prints text for a terminal and Markdown for a pull request, with counts and links", () => {
    const text = runSpeky(["diff", "main"], repo.dir, env).stdout;
    expect(text.split("\n").slice(0, 5)).toEqual([
      `main (${base.slice(0, 12)}) → working tree`,
      "manifests: 0 changed",
      "requirements: 1 added, 1 removed, 4 changed, 0 renamed",
      "  + REQ-9  Coupons",
      "  - REQ-3  Gift wrap",
    ]);
    expect(text).toContain("\ncoverage: 1 changed\n  REQ-4  every test automated → every test manual\n");
    expect(text).toContain("\n  > REQ-10  src/labels.py:2  label  →  src/tags/labels.py:2  label\n");
    expect(text).toContain("\nimpact: 5 definitions\n  src/cart.py:3-4  Cart.total  REQ-1\n");
    expect(text).toContain(
      "\nsuspect: 2\n  REQ-2  text changed; 1 tagged definition, untouched:\n    REQ-2  src/cart.py:7  Cart.discount\n  REQ-5  text changed; it has no tagged definition\n",
    );
    expect(text.endsWith("rerun: TST-1, TST-10, TST-2, TST-5, TST-6\n")).toBe(true);

    const md = runSpeky(["diff", "main", "--format", "markdown", "--report-url", "https://docs.example.com/report"], repo.dir, env).stdout;
    const lines = md.split("\n");
    expect(lines[0]).toBe(`## Specification changes: \`main\` (${base.slice(0, 12)}) → working tree`);
    expect(lines[2]).toBe(
      "**Summary:** manifests: 0 changed · requirements: 1 added, 1 removed, 4 changed, 0 renamed · tests: 1 added, 1 removed, 1 changed, 0 renamed · " +
        "code references: 1 added, 2 removed, 1 moved · coverage: 1 changed · impact: 5 definitions · suspect: 2 · rerun: 5 tests",
    );
    for (const heading of SECTION_HEADINGS) {
      expect(lines).toContain(`### ${heading}`);
    }
    // IDs link to the report's item pages; code to source_links: the head's at its branch, a deleted line's at the base commit.
    expect(md).toContain("- added [`REQ-9`](https://docs.example.com/report/requirements/0001.html#REQ-9) Coupons");
    expect(md).toContain("- removed `REQ-3` Gift wrap");
    expect(md).toContain(
      `\`Cart.total\` at [\`src/cart.py:3-4\`](${links.headTotal}): [\`REQ-1\`](https://docs.example.com/report/requirements/0001.html#REQ-1)`,
    );
    expect(md).toContain(`at [\`src/old.py:2\`](${links.baseOld(base)}) on \`export_csv\``);
    expect(md).toContain("#REQ-4): every test automated → every test manual\n");
  });

  // speky:speky-ts#TDIFF-FAIL-ON
  it("exits 1 when a --fail-on part is not empty, 0 otherwise, 2 on an unknown name", () => {
    expect(runSpeky(["diff", "main", "--fail-on", "suspect,coverage,removed"], repo.dir, env).status).toBe(1);
    expect(runSpeky(["diff", "main", "--fail-on", "tests.removed"], repo.dir, env).status).toBe(1);
    expect(
      runSpeky(["diff", "HEAD", "HEAD", "--fail-on", "requirements,tests,code_references,coverage,impact,suspect,rerun"], repo.dir, env)
        .status,
    ).toBe(0);
    const bad = runSpeky(["diff", "main", "--fail-on", "suspects"], repo.dir, env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^speky: --fail-on takes .*suspect.*; not 'suspects'\n/);
  });
});

describe("speky diff, two revisions", () => {
  // speky:speky-ts#TDIFF-REVISIONS
  it("compares two commits as the working tree form does, and an unchanged pair as empty", () => {
    const repo = GitRepo.init(BASE_FILES);
    const base = repo.commit("base");
    applyHeadChanges(repo);
    const head = repo.commit("head");
    repo.write({ "reqs.yaml": "not: [valid" }); // the working tree plays no part
    const env = cacheEnv();
    const run = runSpeky(["diff", "main~1", "main", "--format", "json"], repo.dir, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expectedChanges("main~1", base, "main", head));
    // The head is a revision too: its links point at its commit.
    const md = runSpeky(["diff", "main~1", "main", "--format", "markdown"], repo.dir, env).stdout;
    expect(md).toContain(`(https://example.com/acme/shop/blob/${head}/src/cart.py#L3)`);
    const same = JSON.parse(runSpeky(["diff", base, base, "--format", "json"], repo.dir, env).stdout);
    expect(same).toMatchObject({
      requirements: { added: [], removed: [], changed: [] },
      code_references: { added: [], removed: [] },
      impact: [],
      suspect: [],
      rerun: [],
    });
  });
});

describe("speky diff, bad input", () => {
  let repo: GitRepo;
  beforeAll(() => {
    repo = GitRepo.init(BASE_FILES);
    repo.commit("base");
  });

  // speky:speky-ts#TDIFF-BAD-REVISION
  it("exits 2 on a revision that does not exist, an option given as one, a missing base; git never sees an option", () => {
    const missing = runSpeky(["diff", "nope"], repo.dir, cacheEnv());
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe("speky: 'nope' is not a revision: no commit of this repository has that name\n");
    const head = runSpeky(["diff", "main", "nope"], repo.dir, cacheEnv());
    expect(head.status).toBe(2);
    expect(head.stderr).toContain("'nope' is not a revision");
    // Given after --, an option-looking revision is refused before git is run: no file is written.
    for (const revision of ["--output=x", "-ox", "--upload-pack=touch x"]) {
      const run = runSpeky(["diff", "--", revision], repo.dir, cacheEnv());
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("is not a revision (it starts with '-'");
    }
    const option = runSpeky(["diff", "--output=x"], repo.dir, cacheEnv());
    expect(option.status).toBe(2);
    expect(option.stderr).toBe("speky: unknown option '--output'\nTry 'speky --help'.\n");
    expect(existsSync(path.join(repo.dir, "x"))).toBe(false);
    const none = runSpeky(["diff"], repo.dir, cacheEnv());
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("diff needs a base revision");
  });

  // speky:speky-ts#TDIFF-OUTSIDE-GIT
  it("exits 2 in a folder outside git", () => {
    const dir = scratch();
    const run = runSpeky(["diff", "main", "--format", "json"], dir, { ...cacheEnv(), GIT_CEILING_DIRECTORIES: path.dirname(dir) });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^speky: '.*' is not inside a git work tree \(.*\); speky diff compares git revisions\n$/);
  });

  // speky:speky-ts#TDIFF-LOAD-ERRORS
  it("reports a side whose specs do not load with its errors, leaves the sections out and exits 1", () => {
    const broken = GitRepo.init({ ...BASE_FILES, "reqs.yaml": `${BASE_FILES["reqs.yaml"]}  - id: REQ-1\n    long: twice\n` });
    const commit = broken.commit("a duplicate ID");
    broken.write({ "reqs.yaml": BASE_FILES["reqs.yaml"] });
    const run = runSpeky(["diff", "main", "--format", "json"], broken.dir, cacheEnv());
    expect(run.status).toBe(1);
    const doc = JSON.parse(run.stdout);
    expect(Object.keys(doc)).toEqual(["base", "base_commit", "head", "load_errors"]);
    expect(doc).toMatchObject({ base: "main", base_commit: commit, head: "working tree" });
    expect(Object.keys(doc.load_errors)).toEqual(["base"]);
    expect(doc.load_errors.base).toEqual([
      expect.objectContaining({ file: "reqs.yaml", severity: "error", message: expect.stringContaining("REQ-1") }),
    ]);
    const text = runSpeky(["diff", "main"], broken.dir, cacheEnv()).stdout;
    expect(text).toContain("the base side's specifications do not load (1 error):\n  reqs.yaml:");
    expect(text.endsWith("nothing compared\n")).toBe(true);
  });

  // speky:speky-ts#TDIFF-DELETED-MANIFEST
  it("compares a side with no manifest as an empty model: a manifest deleted removes everything, one not there yet adds it", () => {
    const gone = GitRepo.init(BASE_FILES);
    gone.commit("base");
    gone.write({ "speky.yaml": null });
    const run = runSpeky(["diff", "main", "--format", "json"], gone.dir, cacheEnv());
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.load_errors).toBeUndefined();
    expect(doc.without_specification).toEqual(["head"]);
    expect(doc.requirements.removed).toHaveLength(9);
    expect(doc.manifests).toEqual([
      { file: "speky.yaml", project: "shop", change: "removed", keys: ["code_sources", "files", "kind", "name", "source_links"] },
    ]);
  });
});

describe("speky diff's snapshot slots", () => {
  // speky:speky-ts#TDIFF-SLOTS
  it("takes over a slot whose lock names a dead run or another boot, and leaves one a live run holds", () => {
    const repo = GitRepo.init(BASE_FILES);
    repo.commit("base");
    const env = cacheEnv();
    const first = runSpeky(["diff", "main", "--format", "json"], repo.dir, env);
    expect(first.status).toBe(0);
    const slots = path.join(env.SPEKY_CACHE_DIR, "diff-trees");
    const folder = path.join(slots, readdirSync(slots)[0]);
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const lock = path.join(folder, "0", "lock");
    for (const stale of [`999999999 ${boot}\n`, `1 not-this-boot\n`, "garbage"]) {
      writeFileSync(lock, stale);
      expect(runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout).toBe(first.stdout);
      expect(existsSync(lock)).toBe(false);
      expect(readdirSync(folder)).toEqual(["0"]);
    }
    // This test's own process is alive on this boot: its lock holds slot 0, so another is used.
    writeFileSync(lock, `${process.pid} ${boot}\n`);
    expect(runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout).toBe(first.stdout);
    expect(readdirSync(folder).sort()).toEqual(["0", "1"]);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid} ${boot}\n`);
  });
});
