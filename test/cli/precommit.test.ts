// The pre-commit hook with its default arguments, run by the real pre-commit framework (Debian's):
// the hook's entry, args and file passing as .pre-commit-hooks.yaml declares them, on a repository
// laid out as the README says (./speky.yaml) and on a monorepo without one (the manifests found).
// test/cli/install.test.ts installs the hook from a clone with npm, as users get it; here the built
// binary is on PATH (a `local` hook of language `system`), so that this runs in seconds.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO, SPEKY_BIN, tempDir } from "../support/process.js";

const PRE_COMMIT = "/usr/bin/pre-commit";

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

/** A git repository with pre-commit installed, running our hook as .pre-commit-hooks.yaml defines it. */
function repository(files: Record<string, string>) {
  const dir = tempDir("speky-ts-precommit-");
  const repo = path.join(dir, "repo");
  const bin = path.join(dir, "bin");
  mkdirSync(repo);
  mkdirSync(bin);
  symlinkSync(SPEKY_BIN, path.join(bin, "speky"));
  const [hook] = parse(readFileSync(path.join(REPO, ".pre-commit-hooks.yaml"), "utf8"));
  // The hook as declared, with every field that decides how it runs; only the language differs.
  const local = { ...hook, language: "system" };
  write(repo, { ...files, ".pre-commit-config.yaml": `repos:\n  - repo: local\n    hooks:\n      - ${JSON.stringify(local)}\n` });
  const gitConfig = path.join(dir, "gitconfig");
  writeFileSync(gitConfig, "[user]\n  name = Test\n  email = test@example.com\n[init]\n  defaultBranch = main\n");
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    PRE_COMMIT_HOME: path.join(dir, "cache"),
    GIT_CONFIG_GLOBAL: gitConfig,
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const run = (command: string, ...args: string[]) => {
    const r = spawnSync(command, args, { cwd: repo, env, encoding: "utf8" });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  };
  expect(run("git", "init", "-q").status).toBe(0);
  expect(run(PRE_COMMIT, "install").status).toBe(0);
  return {
    repo,
    hook,
    commit(message: string) {
      expect(run("git", "add", "-A").status).toBe(0);
      return run("git", "commit", "-q", "-m", message);
    },
    git: (...args: string[]) => run("git", ...args),
  };
}

const MANIFEST = "kind: project\nname: shop\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n";
const REQS = "kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-1\n    long: One.\n";

describe.skipIf(!existsSync(PRE_COMMIT))("the pre-commit hook's default arguments, through pre-commit", () => {
  // speky:speky-ts#TCHECK-PRECOMMIT-DEFAULT
  it("checks ./speky.yaml: blocks a dangling tag with its message, lets the fix through", () => {
    const r = repository({ "speky.yaml": MANIFEST, "specs/reqs.yaml": REQS, "src/cart.py": "# speky:shop#REQ-2\ndef add():\n    pass\n" });
    expect(r.hook.args).toEqual(["--"]);
    const blocked = r.commit("dangling");
    expect(blocked.status).toBe(1);
    expect(blocked.output).toContain("src/cart.py:1:3: error: tag speky:shop#REQ-2 names an unknown ID 'REQ-2'; did you mean REQ-1?\n");
    expect(r.git("rev-parse", "--verify", "-q", "HEAD").status).not.toBe(0);

    writeFileSync(path.join(r.repo, "src/cart.py"), "# speky:shop#REQ-1\ndef add():\n    pass\n");
    const passed = r.commit("fixed");
    expect(passed.output).toMatch(/speky check\.+Passed/);
    expect(passed.status).toBe(0);
  });

  it("finds the manifests of a monorepo without ./speky.yaml, and names files from the root", () => {
    const r = repository({
      "shop/speky.yaml": MANIFEST,
      "shop/specs/reqs.yaml": REQS,
      "shop/src/cart.py": "# speky:shop#REQ-1\ndef add():\n    pass\n",
    });
    expect(r.commit("first").status).toBe(0);
    // Only the staged file is scanned; a staged spec file is loaded through its manifest.
    write(r.repo, {
      "shop/src/pay.py": "# speky:shop#REQ-01\ndef pay():\n    pass\n",
      "shop/specs/reqs.yaml": `${REQS}    ref: [REQ-1]\n`,
    });
    const blocked = r.commit("dangling");
    expect(blocked.status).toBe(1);
    expect(blocked.output).toContain("speky: no ./speky.yaml: using shop/speky.yaml\n");
    expect(blocked.output).toContain(
      "shop/src/pay.py:1:3: error: tag speky:shop#REQ-01 names an unknown ID 'REQ-01'; did you mean REQ-1?\n1 error, 0 warnings in 2 files\n",
    );
  });
});
