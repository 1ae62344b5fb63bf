#!/usr/bin/env node
// Writes fixtures/myst/expected/: for each case of fixtures/myst/cases.json, what speky's own
// command line does on our fixture tree (its exit status, the pages it writes), with our code
// references fed to its generator (scripts/speky-golden.py). Run once per change of the
// fixtures or of the speky version we follow; test/report/myst-pages.test.ts compares ours with it.
//
//   git --git-dir=<speky snapshot> archive <commit> python | tar -x -C /tmp/speky
//   npm run build && node scripts/speky-golden.mjs /tmp/speky/python <commit>
//
// speky's code stays in that temporary folder: nothing of it is written here but its output.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURES = path.join(REPO, "fixtures/myst");
const EXPECTED = path.join(FIXTURES, "expected");
const PYTHON = "/usr/bin/python3";

const [spekyPython, commit] = process.argv.slice(2);
if (!spekyPython || !/^[0-9a-f]{40}$/.test(commit ?? "")) {
  console.error("usage: node scripts/speky-golden.mjs SPEKY_PYTHON_DIR SPEKY_COMMIT");
  process.exit(2);
}

/** The fixture tree in a fresh git repository, as test/report/myst-pages.test.ts lays it. */
function gitTree(tree) {
  const dir = mkdtempSync(path.join(tmpdir(), "speky-golden-"));
  cpSync(path.join(FIXTURES, tree), dir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
  const git = (...args) =>
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", ...args], { cwd: dir, env });
  git("init", "-q");
  git("remote", "add", "origin", "git@example.invalid:org/shop.git");
  git("add", "-A");
  git("commit", "-qm", "fixture");
  return dir;
}

const { cases } = JSON.parse(readFileSync(path.join(FIXTURES, "cases.json"), "utf8"));
rmSync(EXPECTED, { recursive: true, force: true });
const statuses = {};
for (const c of cases) {
  const dir = gitTree(c.tree);
  const exported = path.join(dir, ".export.json");
  const ours =
    c.export.length === 0
      ? { status: 1 }
      : spawnSync(process.execPath, [path.join(REPO, "bin/speky.js"), "export", ...c.export, "--out", exported, "--no-cache"], {
          cwd: dir,
        });
  if (ours.status !== 0) writeFileSync(exported, JSON.stringify({ code_references: [], dangling_references: [] }));
  const run = spawnSync(PYTHON, [path.join(REPO, "scripts/speky-golden.py"), spekyPython, exported, ...c.args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, COLUMNS: "80" },
  });
  statuses[c.name] = run.status;
  if (c.out !== null) {
    if (run.status !== 0) throw new Error(`${c.name}: speky exited ${run.status}\n${run.stderr}`);
    cpSync(path.join(dir, c.out), path.join(EXPECTED, c.name), { recursive: true });
  } else if (existsSync(path.join(dir, "markdown"))) {
    throw new Error(`${c.name}: speky wrote markdown/`);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`${c.name}: exit ${run.status}`);
}
const python = spawnSync(PYTHON, ["--version"], { encoding: "utf8" }).stdout.trim();
writeFileSync(
  path.join(EXPECTED, "golden.json"),
  `${JSON.stringify(
    {
      speky: { repository: "https://github.com/agagniere/speky", commit },
      python,
      command: `node scripts/speky-golden.mjs SPEKY_PYTHON_DIR ${commit}`,
      statuses,
    },
    null,
    2,
  )}\n`,
);
