// `speky diff` on hostile and large repositories: a git configuration that would run commands,
// text that would forge lines or steer a terminal, renames (edited, and a thousand at once) and
// a rewrite of a huge tagged file. Through the built binary; counts and bounds, no timings.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_FILES } from "../support/diff-scenario.js";
import { cacheEnv, GitRepo, removeScratch, scratch } from "../support/git-repo.js";
import { runSpeky } from "../support/process.js";

afterAll(removeScratch);

const MANIFEST = `kind: project
name: shop
files: [reqs.yaml]
code_sources: ["src/**/*.py"]
`;
const REQS = "kind: requirements\ncategory: cart\nrequirements:\n  - id: REQ-1\n    long: One.\n";

describe("speky diff on a hostile repository", () => {
  // speky:speky-ts#TDIFF-GIT-CONFIG
  it("runs no command a repository's git configuration names (fsmonitor, pager, filters, external diff, hooks)", () => {
    const repo = GitRepo.init({ ...BASE_FILES, ".gitattributes": "* filter=evil diff=evil\n" });
    repo.commit("base");
    repo.write({ "src/new.py": "# speky:shop#REQ-1\ndef f():\n    pass\n" });
    const head = repo.commit("head");
    repo.write({ "src/cart.py": BASE_FILES["src/cart.py"].replace("thanks", "bye") });
    const marks = scratch("speky-diff-marks-");
    const script = path.join(scratch("speky-diff-script-"), "run.sh");
    writeFileSync(script, `#!/bin/sh\ntouch "${marks}/$(basename "$0")-$$"\ncat\n`);
    chmodSync(script, 0o755);
    const hooks = scratch("speky-diff-hooks-");
    for (const hook of ["post-index-change", "post-checkout", "pre-commit", "reference-transaction"]) {
      writeFileSync(path.join(hooks, hook), `#!/bin/sh\ntouch "${marks}/${hook}"\n`);
      chmodSync(path.join(hooks, hook), 0o755);
    }
    for (const [key, value] of [
      ["core.fsmonitor", script],
      ["core.pager", script],
      ["pager.diff", script],
      ["diff.external", script],
      ["diff.evil.command", script],
      ["diff.evil.textconv", script],
      ["filter.evil.clean", script],
      ["filter.evil.smudge", script],
      ["core.hooksPath", hooks],
      ["core.sshCommand", script],
      ["remote.origin.url", "ssh://example.invalid/shop.git"],
      ["remote.origin.uploadpack", script],
    ]) {
      repo.git("config", key, value);
    }
    // The configuration is live: git's own porcelain runs it.
    repo.git("status");
    const before = new Set(readdirSync(marks));
    expect(before.size).toBeGreaterThan(0);

    const env = cacheEnv();
    const working = runSpeky(["diff", "main~1", "--format", "json"], repo.dir, env);
    expect(working.status).toBe(0);
    expect(JSON.parse(working.stdout).impact.map((e: { symbol: string }) => e.symbol)).toEqual(["Cart.receipt", "f"]);
    const revisions = runSpeky(["diff", "main~1", head, "--format", "json"], repo.dir, env);
    expect(revisions.status).toBe(0);
    expect(JSON.parse(revisions.stdout).code_references.added).toEqual([
      { id: "REQ-1", project: "shop", file: "src/new.py", line: 2, symbol: "f", is_test: false },
    ]);
    expect(readdirSync(marks).filter((f) => !before.has(f))).toEqual([]);
  });

  // speky:speky-ts#TDIFF-MALFORMED-TREE
  it("writes no name of a malformed tree that could leave the snapshot, and follows no link out of it", () => {
    const repo = GitRepo.init({
      "speky.yaml": MANIFEST.replace('["src/**/*.py"]', '["src/**/*.py", "a/**/*.py", "out/**/*.py"]'),
      "reqs.yaml": REQS,
    });
    repo.write({ "src/ok.py": "# speky:shop#REQ-1\ndef ok():\n    pass\n" });
    repo.commit("base");
    const outside = scratch("speky-diff-outside-");
    const evil = malformedCommit(repo, outside);
    const env = cacheEnv();
    const run = runSpeky(["diff", evil, "--format", "json"], repo.dir, env);
    // The link leading out of the snapshot is refused at its manifest line, as in a working tree.
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).load_errors).toEqual({
      base: [
        {
          file: "speky.yaml",
          line: 4,
          column: 44,
          severity: "error",
          message: expect.stringMatching(/^'out\/\*\*\/\*\.py' reaches outside the project/),
        },
      ],
    });
    expect(readdirSync(outside)).toEqual([]);
    const slots = path.join(env.SPEKY_CACHE_DIR, "diff-trees");
    const tree = path.join(slots, readdirSync(slots)[0], "0", "tree");
    expect(readdirSync(tree).sort()).toEqual([".git", "out", "reqs.yaml", "speky.yaml", "src"]);
    expect(readFileSync(path.join(tree, ".git"), "utf8")).toBe(`gitdir: ${path.join(realpathSync(repo.dir), ".git")}\n`);
  });

  // speky:speky-ts#TDIFF-ESCAPED
  it("lets no repository text start a line, steer a terminal or format the Markdown", () => {
    const evil = "Evil\u001b[31m\n::error file=x::forged\u2028 @admin <img src=x> [a](javascript:x)";
    const repo = GitRepo.init({ "speky.yaml": MANIFEST, "reqs.yaml": REQS });
    repo.commit("base");
    const file = "src/bad\n::error file=y::forged.py";
    repo.write({
      "reqs.yaml": `${REQS}  - id: REQ-2\n    short: ${JSON.stringify(evil)}\n    long: Two.\n`,
      [file]: "# speky:shop#REQ-2\ndef f():\n    pass\n",
    });
    const env = cacheEnv();
    const text = runSpeky(["diff", "main"], repo.dir, env);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain("  + REQ-2  Evil\\x1b[31m\\n::error file=x::forged\\u2028 @admin");
    expect(text.stdout).toContain("src/bad\\n::error file=y::forged.py:2");
    for (const out of [text.stdout, runSpeky(["diff", "main", "--format", "markdown"], repo.dir, env).stdout]) {
      expect(out).not.toMatch(/^::error/m);
      expect(out).not.toMatch(/[\u001b\u2028\u2029]/);
    }
    const md = runSpeky(["diff", "main", "--format", "markdown"], repo.dir, env).stdout;
    // Each mark that could be markup is escaped (a backslash before it), the rest reads as written.
    expect(md).toContain("Evil\\\\x1b\\[31m ::error file=x::forged  \\@admin \\<img src=x> \\[a\\](javascript:x)");
    expect(md).not.toMatch(/(?<!\\)@admin|(?<!\\)<img|(?<!\\)\]\(javascript:/);
    const json = runSpeky(["diff", "main", "--format", "json"], repo.dir, env).stdout;
    expect(json).not.toMatch(/[\u001b\u2028]/);
    expect(JSON.parse(json).requirements.added[0].short).toBe(evil);
  });
});

/** A tree object git itself would never write (names `..`, `.git`, a link and a folder of one name), committed. */
function malformedCommit(repo: GitRepo, outside: string): string {
  const hash = (type: string, content: Buffer | string) =>
    execFileSync("git", ["hash-object", "-t", type, "--literally", "-w", "--stdin"], {
      cwd: repo.dir,
      input: content,
      encoding: "utf8",
    }).trim();
  const entry = (mode: string, name: string, oid: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, "hex")]);
  const evil = hash("blob", "# speky:shop#REQ-1\ndef evil():\n    pass\n");
  const folder = hash("tree", entry("100644", "x.py", evil));
  const top = repo
    .git("ls-tree", "HEAD")
    .trim()
    .split("\n")
    .map((line) => {
      const [meta, name] = line.split("\t");
      const [mode, , oid] = meta.split(" ");
      return entry(mode === "040000" ? "40000" : mode, name, oid);
    });
  const tree = hash(
    "tree",
    Buffer.concat([
      ...top,
      entry("100644", "..", evil),
      entry("100644", ".git", evil),
      entry("120000", "a", hash("blob", outside)),
      entry("40000", "a", folder),
      entry("120000", "out", hash("blob", outside)),
    ]),
  );
  const who = { NAME: "Speky Tests", EMAIL: "tests@speky.invalid", DATE: "2024-01-02T00:00:00Z" };
  const env = Object.fromEntries(["AUTHOR", "COMMITTER"].flatMap((role) => Object.entries(who).map(([k, v]) => [`GIT_${role}_${k}`, v])));
  return execFileSync("git", ["commit-tree", tree, "-m", "malformed"], {
    cwd: repo.dir,
    encoding: "utf8",
    env: { ...process.env, ...env },
  }).trim();
}

describe("speky diff at scale", () => {
  // speky:speky-ts#TDIFF-RENAMES
  it("follows an edited rename and a thousand renamed files: their tags neither added nor removed", () => {
    const files: Record<string, string> = { "speky.yaml": MANIFEST, "reqs.yaml": REQS };
    const body = Array.from({ length: 20 }, (_, i) => `    x${i} = ${i}`).join("\n");
    files["src/edited.py"] = `# speky:shop#REQ-1\ndef edited():\n${body}\n    return x0\n`;
    for (let i = 0; i < 1000; i++) files[`src/old/m${i}.py`] = `# speky:shop#REQ-1\ndef f${i}():\n    return ${i}\n`;
    const repo = GitRepo.init(files);
    repo.commit("base");
    mkdirSync(path.join(repo.dir, "src/new"), { recursive: true });
    for (let i = 0; i < 1000; i++) repo.move(`src/old/m${i}.py`, `src/new/m${i}.py`);
    repo.move("src/edited.py", "src/renamed.py");
    repo.write({ "src/renamed.py": files["src/edited.py"].replace("return x0", "return x1") });
    const run = runSpeky(["diff", "main", "--format", "json"], repo.dir, cacheEnv());
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    // Every tag went with its file: moved, neither added nor removed.
    expect(doc.code_references.added).toEqual([]);
    expect(doc.code_references.removed).toEqual([]);
    expect(doc.code_references.moved).toHaveLength(1001);
    expect(doc.code_references.moved[0]).toMatchObject({ from: { file: "src/edited.py" }, to: { file: "src/renamed.py" } });
    expect(doc.impact).toEqual([
      { project: "shop", file: "src/renamed.py", symbol: "edited", start_line: 2, end_line: 23, ids: ["REQ-1"] },
    ]);
  });

  // speky:speky-ts#TDIFF-HUGE
  it("compares a 60,000-line tagged file rewritten line by line, and calls its definition impacted", () => {
    const lines = (tag: string) => Array.from({ length: 60_000 }, (_, i) => `    v${i} = "${tag}${(i * 7919) % 60_000}"`).join("\n");
    const repo = GitRepo.init({
      "speky.yaml": MANIFEST,
      "reqs.yaml": REQS,
      "src/big.py": `# speky:shop#REQ-1\ndef big():\n${lines("a")}\n`,
    });
    repo.commit("base");
    repo.write({ "src/big.py": `# speky:shop#REQ-1\ndef big():\n${lines("b")}\n` });
    const run = runSpeky(["diff", "main", "--format", "json"], repo.dir, cacheEnv());
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.code_references).toEqual({ added: [], removed: [], moved: [] });
    expect(doc.impact).toEqual([{ project: "shop", file: "src/big.py", symbol: "big", start_line: 2, end_line: 60_002, ids: ["REQ-1"] }]);
  });
});
