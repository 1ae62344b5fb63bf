// `npm run bench -- diff`: speky diff of a one-file change on the bench tree (issue 28). The tree
// (scan/tree.ts, "real") is copied once into a git repository of its own (files hard-linked: the
// copy costs no space; the changed file is written anew, so the shared tree is never edited)
// and committed; a blank line is then inserted at the top of one tagged file, moving its tags.
// Timed as child processes of the built CLI: cold (no snapshot, no scan cache), then warm,
// beside a warm `speky scan` of the same tree; the aim is warm diff within 2× of warm scan.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchTree, ensureBenchTree } from "./scan/tree.js";

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../bin/speky.js");
const REPO_VERSION = 1;
/** The aim of issue 28: a warm diff costs at most this many warm scans. */
export const DIFF_AIM = 2;

const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const load = () => `load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "bench",
      GIT_AUTHOR_EMAIL: "bench@speky.invalid",
      GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
      GIT_COMMITTER_NAME: "bench",
      GIT_COMMITTER_EMAIL: "bench@speky.invalid",
      GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
    },
  });
}

/** The bench tree as a committed git repository, built once and kept beside it. */
function ensureRepository(tree: BenchTree, log: (line: string) => void): string {
  const dir = path.join(tmpdir(), `speky-bench-diff-v${REPO_VERSION}-tree-${path.basename(tree.dir)}`);
  if (existsSync(path.join(dir, ".git", "speky-bench-done"))) return dir;
  log(`building the diff bench's repository in ${dir} (once: hard links and one commit)...`);
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  execFileSync("cp", ["-al", tree.dir, building]);
  git(building, "init", "-q", "-b", "main");
  git(building, "add", "-A");
  git(building, "commit", "-q", "-m", "bench tree");
  writeFileSync(path.join(building, ".git", "speky-bench-done"), "");
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return dir;
}

interface Timed {
  ms: number;
  status: number | null;
  stdout: string;
}

function speky(args: string[], cwd: string, cacheDir: string): Timed {
  const started = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, SPEKY_CACHE_DIR: cacheDir },
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`speky ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, status: r.status, stdout: r.stdout };
}

const best = (runs: Timed[]) => Math.min(...runs.map((r) => r.ms));

export interface DiffFigures {
  coldMs: number;
  warmMs: number;
  scanWarmMs: number;
}

// speky:speky-ts#DIFF-BENCH
export async function benchDiff(log: (line: string) => void): Promise<DiffFigures> {
  const tree = ensureBenchTree(log);
  const repo = ensureRepository(tree, log);
  const changed = path.join(repo, "repo", tree.planted[0].file);
  const original = readFileSync(changed);
  // Written anew (a temporary file renamed over it): the hard link to the shared tree is broken, not written through.
  const edit = (bytes: Buffer) => {
    writeFileSync(`${changed}.new`, bytes);
    renameSync(`${changed}.new`, changed);
  };
  edit(Buffer.concat([Buffer.from("\n"), original]));
  const cacheDir = mkdtempSync(path.join(tmpdir(), "speky-bench-diff-cache-"));
  try {
    log(`${tree.files.toLocaleString("en-US")} files; the change: a blank line atop ${tree.planted[0].file}`);
    const args = ["diff", "HEAD", "--format", "json"];
    const cold = [0, 1].map(() => {
      rmSync(cacheDir, { recursive: true, force: true });
      return speky(args, repo, cacheDir);
    });
    log(`speky diff HEAD, cold (no snapshot, no scan cache) ${fmtMs(best(cold)).padStart(8)}   (best of 2; ${load()})`);
    const warm = [0, 1, 2].map(() => speky(args, repo, cacheDir));
    log(`speky diff HEAD, warm                               ${fmtMs(best(warm)).padStart(8)}   (best of 3; ${load()})`);
    speky(["scan", "speky.yaml"], repo, cacheDir);
    const scan = [0, 1, 2].map(() => speky(["scan", "speky.yaml"], repo, cacheDir));
    log(`speky scan speky.yaml, warm                         ${fmtMs(best(scan)).padStart(8)}   (best of 3; ${load()})`);
    const doc = JSON.parse(warm[0].stdout) as { code_references: { added: unknown[]; removed: unknown[] }; impact: unknown[] };
    const same = warm.every((r) => r.stdout === cold[0].stdout);
    log(
      `the diff: ${doc.code_references.added.length} tags added, ${doc.code_references.removed.length} removed, ` +
        `${doc.impact.length} definitions in impact; warm output identical to cold: ${same ? "yes" : "NO"}`,
    );
    const ratio = best(warm) / best(scan);
    log(`warm diff / warm scan: ${ratio.toFixed(2)}× (aim ≤ ${DIFF_AIM}×: ${ratio <= DIFF_AIM ? "met" : "MISSED"})`);
    return { coldMs: best(cold), warmMs: best(warm), scanWarmMs: best(scan) };
  } finally {
    edit(original);
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
