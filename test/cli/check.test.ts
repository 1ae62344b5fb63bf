import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { copyFixture, REPO, runSpeky, SPEKY_BIN, tempDir } from "../support/process.js";

const DANGLING = "src/bad.py:5:3: error: tag speky:orb#ORB-03 names an unknown ID 'ORB-03'; did you mean ORB-003?";
const IN_STRING = "src/bad.py:7:14: warning: tag in a string literal is not a tag";

describe("speky check", () => {
  // speky:speky-ts#TCHECK-DANGLING
  it("fails on a dangling tag at the tag's own place, with a suggestion, and passes once it is fixed", () => {
    const dir = copyFixture("check/tree");
    const failing = runSpeky(["check", "speky.yaml"], dir);
    expect(failing.stdout).toBe(`${DANGLING}\n${IN_STRING}\n1 error, 1 warning in 4 files\n`);
    expect(failing.status).toBe(1);

    const bad = path.join(dir, "src/bad.py");
    writeFileSync(bad, readFileSync(bad, "utf8").replace("ORB-03\n", "ORB-003\n"));
    const passing = runSpeky(["check", "speky.yaml"], dir);
    expect(passing.stdout).toBe(`${IN_STRING}\n0 errors, 1 warning in 4 files\n`);
    expect(passing.status).toBe(0);
  });

  it("makes warnings fatal with --strict", () => {
    const dir = copyFixture("check/tree");
    writeFileSync(path.join(dir, "src/bad.py"), "# speky:orb#ORB-003\ndef draw():\n    return 'speky:orb#ORB-001'\n");
    const run = runSpeky(["check", "speky.yaml", "--strict"], dir);
    expect(run.stdout).toBe("src/bad.py:3:13: warning: tag in a string literal is not a tag\n0 errors, 1 warning in 4 files\n");
    expect(run.status).toBe(1);
  });

  it("fails on a bad spec ref at its line", () => {
    const run = runSpeky(["check", "speky.yaml"], path.join(REPO, "fixtures/check/bad-ref"));
    expect(run.stdout).toBe(
      "reqs.yaml:8:11: error: unknown ref 'ORB-01' (no requirement or test has this ID); did you mean ORB-001?\n1 error, 0 warnings\n",
    );
    expect(run.status).toBe(1);
  });

  it("scans only the files named on the command line, but validates the specs whole", () => {
    const dir = copyFixture("check/tree");
    const run = runSpeky(["check", "speky.yaml", "src/good.py"], dir);
    expect(run.stdout).toBe("0 errors, 0 warnings in 2 files\n");
    expect(run.status).toBe(0);
    const named = runSpeky(["check", "speky.yaml", "src/bad.py", "README.md"], dir);
    expect(named.stdout).toBe(`${DANGLING}\n${IN_STRING}\n1 error, 1 warning in 2 files\n`);
    expect(named.status).toBe(1);
  });

  it("prints GitHub workflow commands", () => {
    // Outside git, annotations are relative to the working directory (test/cli/check-monorepo.test.ts: the repository root).
    const run = runSpeky(["check", "speky.yaml", "--format", "github"], copyFixture("check/tree"), { GITHUB_WORKSPACE: "" });
    expect(run.stdout).toBe(
      "::error file=src/bad.py,line=5,col=3::tag speky:orb#ORB-03 names an unknown ID 'ORB-03'; did you mean ORB-003?\n" +
        "::warning file=src/bad.py,line=7,col=14::tag in a string literal is not a tag\n" +
        "1 error, 1 warning in 4 files\n",
    );
  });

  it("prints JSON findings valid against schema/check.schema.json", () => {
    const run = runSpeky(["check", "speky.yaml", "--format=json"], path.join(REPO, "fixtures/check/tree"));
    const schema = JSON.parse(readFileSync(path.join(REPO, "schema/check.schema.json"), "utf8"));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    const report = JSON.parse(run.stdout);
    const valid = validate(report);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(report).toEqual({
      version: 1,
      findings: [
        {
          file: "src/bad.py",
          line: 5,
          column: 3,
          severity: "error",
          message: "tag speky:orb#ORB-03 names an unknown ID 'ORB-03'; did you mean ORB-003?",
        },
        { file: "src/bad.py", line: 7, column: 14, severity: "warning", message: "tag in a string literal is not a tag" },
      ],
      summary: { errors: 1, warnings: 1, files: 4 },
    });
  });

  it("exits 2 on usage errors", () => {
    // No manifest named and none to be found.
    expect(runSpeky(["check"], tempDir()).status).toBe(2);
    const bad = runSpeky(["check", "specs/speky-ts.yaml", "--format", "xml"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("speky: option '--format' must be one of text, json, github, sarif, not 'xml'\nTry 'speky --help'.\n");
    // Not a command: speky's own command line, with a FILE that does not exist (speky's exit 1).
    expect(runSpeky(["frobnicate"]).status).toBe(1);
  });

  it("answers --version and --help", () => {
    const version = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).version;
    expect(runSpeky(["--version"]).stdout).toBe(`speky ${version}\n`);
    const help = runSpeky(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("speky check [PATH... [FILE...]] [-- FILE...]");
  });
});

describe("the pre-commit hook", () => {
  // speky:speky-ts#TCHECK-PRECOMMIT
  // The real framework runs the hook in test/cli/install.test.ts and test/cli/precommit.test.ts; this is
  // the fast check of the staged-files mode, with the hook's own args, then with a user's.
  it("runs as pre-commit runs it: the entry, its args, then the staged file names", () => {
    const dir = copyFixture("check/tree");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
    git("init", "-q");
    git("add", "speky.yaml", "reqs.yaml", "src/good.py");
    const staged = git("diff", "--cached", "--name-only").trim().split("\n");

    // pre-commit installs the package and puts its bins on PATH.
    const binDir = tempDir();
    symlinkSync(SPEKY_BIN, path.join(binDir, "speky"));
    mkdirSync(path.join(binDir, "unused"));
    const [hook] = parse(readFileSync(path.join(REPO, ".pre-commit-hooks.yaml"), "utf8"));
    // No manifest named: ./speky.yaml (the README's), else the manifests found in the repository.
    expect(hook).toMatchObject({ id: "speky-check", language: "node", pass_filenames: true, args: ["--"] });
    const [command, ...entryArgs] = String(hook.entry).split(" ");
    const run = (files: string[], args: string[] = hook.args) => {
      try {
        return {
          status: 0,
          stdout: execFileSync(command, [...entryArgs, ...args, ...files], {
            cwd: dir,
            encoding: "utf8",
            env: { ...process.env, PATH: `${binDir}:${process.env.PATH}` },
          }),
        };
      } catch (error) {
        const e = error as { status: number; stdout: string };
        return { status: e.status, stdout: e.stdout };
      }
    };
    // bad.py is not staged: its dangling tag does not stop this commit.
    expect(run(staged)).toEqual({ status: 0, stdout: "0 errors, 0 warnings in 3 files\n" });
    git("add", "src/bad.py");
    const all = git("diff", "--cached", "--name-only").trim().split("\n");
    expect(run(all)).toEqual({ status: 1, stdout: `${DANGLING}\n${IN_STRING}\n1 error, 1 warning in 4 files\n` });
    // A user's args naming the manifest, as before.
    expect(run(all, ["speky.yaml"])).toEqual({ status: 1, stdout: `${DANGLING}\n${IN_STRING}\n1 error, 1 warning in 4 files\n` });
    // A staged spec file is loaded through its manifest (the specs are validated whole).
    expect(run(["reqs.yaml", "src/good.py"])).toEqual({ status: 0, stdout: "0 errors, 0 warnings in 2 files\n" });
  });
});
