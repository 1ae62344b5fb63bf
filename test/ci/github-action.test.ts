// The GitHub Action (action.yml) run as GitHub's runner runs a composite action's steps
// (test/support/action-runner.ts), on real git repositories: a pull request's shallow clone of
// a bare origin, and a push. The action path is this checkout, built (its install step finds
// dist/ and uses it; a fresh checkout runs `npm ci` and the build there).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAction, runAction } from "../support/action-runner.js";
import { PASSING_TREE, resultsTreeFiles, type TreeFiles, writeTree } from "../support/ci-trees.js";
import { REPO, scratchFolders } from "../support/process.js";

const scratch = scratchFolders();
afterAll(scratch.remove);

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Speky Tests",
  GIT_AUTHOR_EMAIL: "tests@speky.invalid",
  GIT_COMMITTER_NAME: "Speky Tests",
  GIT_COMMITTER_EMAIL: "tests@speky.invalid",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
};
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });

/**
 * A bare origin whose main holds `base` and whose `feature` branch holds `base` with `change`,
 * and the workspace actions/checkout makes of the branch: one commit, origin/main not fetched.
 */
function pullRequest(base: TreeFiles, change: TreeFiles): string {
  const origin = scratch.tempDir("speky-action-origin-");
  git(origin, "init", "-q", "--bare", "-b", "main");
  const work = writeTree(scratch.tempDir("speky-action-work-"), base);
  git(work, "init", "-q", "-b", "main");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "base");
  git(work, "checkout", "-qb", "feature");
  writeTree(work, change);
  git(work, "add", "-A");
  git(work, "commit", "-qm", "change");
  git(work, "push", "-q", origin, "main", "feature");
  const workspace = path.join(scratch.tempDir("speky-action-ws-"), "repo");
  git(REPO, "clone", "-q", "--depth", "1", "--branch", "feature", `file://${origin}`, workspace);
  return workspace;
}

function push(files: TreeFiles): string {
  const workspace = writeTree(scratch.tempDir("speky-action-push-"), files);
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-qm", "push");
  return workspace;
}

const action = readAction(path.join(REPO, "action.yml"));
const job = (workspace: string, inputs: Record<string, string>, env: Record<string, string>) =>
  runAction(action, { actionPath: REPO, workspace, temp: scratch.tempDir("speky-action-runner-"), inputs, env });
const PR_ENV = { GITHUB_EVENT_NAME: "pull_request", GITHUB_BASE_REF: "main", GITHUB_HEAD_REF: "feature" };

/** The shop with a tag naming an unknown ID, and R-OK's text changed. */
const FAILING_CHANGE: TreeFiles = {
  "tests/test_shop.py": `${PASSING_TREE["tests/test_shop.py"]}\n# speky:mini#T-NOPE\ndef test_nope():\n    pass\n`,
  "specs/requirements.yaml": PASSING_TREE["specs/requirements.yaml"].replace("Verified by a passing test.", "Now verified otherwise."),
};

// speky:speky-ts#TGITHUB-ACTION
describe("the GitHub Action, its steps run as the runner runs them", () => {
  it("on a failing pull request: annotations, a SARIF file, the summary and the spec diff, and the job fails like check", () => {
    const workspace = pullRequest(PASSING_TREE, FAILING_CHANGE);
    const run = job(workspace, {}, PR_ENV);
    expect(run.steps.map((s) => s.status)).toEqual([0, 0, 0, 1]);
    expect(run.status).toBe(1);
    const check = run.steps[1];
    expect(check.stdout).toMatch(/^::error file=tests\/test_shop\.py,line=14,col=3::tag speky:mini#T-NOPE names an unknown ID/m);
    expect(run.outputs["exit-code"]).toBe("1");
    const log = JSON.parse(readFileSync(run.outputs["sarif-file"], "utf8")) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(log.runs[0].results.map((r) => `${r.ruleId} ${r.locations[0].physicalLocation.artifactLocation.uri}`)).toEqual([
      "speky/unknown-id-in-code tests/test_shop.py",
    ]);
    expect(run.summary).toContain("## Traceability report: mini");
    // The base branch was fetched into the shallow clone, and compared.
    expect(run.summary).toMatch(/^## Specification changes: `origin\/main` \([0-9a-f]{12}\) → working tree$/m);
    expect(run.summary).toContain("- changed `R-OK`: long");
    expect(run.steps[3].stderr).toContain("speky check found errors");
  });

  it("on a push of a passing tree with results: every step passes, a SARIF log without results, no spec diff", () => {
    const workspace = push(resultsTreeFiles(false));
    const run = job(workspace, { results: "reports/*.xml\n" }, { GITHUB_EVENT_NAME: "push" });
    expect(run.steps.map((s) => [s.name, s.status])).toEqual(action.runs.steps.map((s) => [s.name, 0]));
    expect(run.outputs["exit-code"]).toBe("0");
    const log = JSON.parse(readFileSync(run.outputs["sarif-file"], "utf8")) as { runs: { results: unknown[] }[] };
    expect(log.runs[0].results).toEqual([]);
    expect(run.summary).toContain("## Traceability report: mini");
    expect(run.summary).toMatch(/^### Verification$/m);
    expect(run.summary).not.toContain("Specification changes");
  });

  it("with sarif false and fail-on naming a part of the diff: no SARIF file, and a passing check fails on the diff", () => {
    const change = { "specs/requirements.yaml": FAILING_CHANGE["specs/requirements.yaml"] };
    const workspace = pullRequest(PASSING_TREE, change);
    const run = job(workspace, { sarif: "false", "fail-on": "error, requirements.changed" }, PR_ENV);
    expect(run.outputs).toEqual({ "sarif-file": "", "exit-code": "0" });
    expect(readdirSync(run.temp).filter((f) => f.endsWith(".sarif"))).toEqual([]);
    expect(run.steps.map((s) => s.status)).toEqual([0, 0, 0, 1]);
    expect(run.steps[3].stderr).toContain("the spec diff has changes in: requirements.changed");
  });

  it("with fail-on never: findings leave the job passing, the exit code still an output", () => {
    const workspace = push({ ...PASSING_TREE, ...FAILING_CHANGE });
    const run = job(workspace, { sarif: "false", "fail-on": "never" }, { GITHUB_EVENT_NAME: "push" });
    expect(run.outputs).toEqual({ "sarif-file": "", "exit-code": "1" });
    expect(run.status).toBe(0);
  });

  it("when speky cannot run (no manifest in the repository): exit 2, and the job fails even with fail-on never", () => {
    // A manifest anywhere above the working directory, up to the repository's root, would be found.
    const workspace = push({ "docs/README.md": "no manifest here\n" });
    const run = job(workspace, { "working-directory": "docs", "fail-on": "never" }, { GITHUB_EVENT_NAME: "push" });
    expect(run.outputs["exit-code"]).toBe("2");
    expect(run.steps.map((s) => s.status)).toEqual([0, 0, 0, 2]);
    expect(run.steps[3].stderr).toContain("speky check could not run (exit 2)");
    expect(run.summary).toContain("no summary: speky report failed");
  });
});
