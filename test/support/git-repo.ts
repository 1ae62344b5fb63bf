// A real git repository in a temporary folder, for the suites of `speky diff`: commits by a
// fixed author at fixed times (the nth commit at 2024-01-01 + n hours), so that every hash, and
// so every output naming one, is the same on every run. git is run without the machine's or
// the user's configuration.
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scratchFolders } from "./process.js";

// No optional locks: the suites' own `git status` never refreshes the index (under load a racily
// clean entry made it rewrite .git/index, which a test reads as speky having touched it).
const ISOLATED = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" };

const folders = scratchFolders();

/** A temporary folder removed by removeScratch (a suite's afterAll): repositories and their snapshots add up. */
export const scratch = (prefix = "speky-diff-") => folders.tempDir(prefix);

export const removeScratch = folders.remove;

/** A cache folder of its own for a run of speky diff (its snapshots and scan cache). */
export const cacheEnv = () => ({ SPEKY_CACHE_DIR: scratch("speky-diff-cache-") });

export class GitRepo {
  private commits = 0;

  private constructor(readonly dir: string) {}

  /** A new repository (branch main) holding `files`, not yet committed. */
  static init(files: Record<string, string> = {}, dir = scratch()): GitRepo {
    const repo = new GitRepo(dir);
    repo.git("init", "-q", "-b", "main");
    repo.write(files);
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.dir, encoding: "utf8", env: { ...process.env, ...ISOLATED } });
  }

  /** Writes each file (creating folders); `null` deletes it. */
  write(files: Record<string, string | null>): this {
    for (const [rel, content] of Object.entries(files)) {
      const abs = path.join(this.dir, rel);
      if (content === null) rmSync(abs, { force: true });
      else {
        mkdirSync(path.dirname(abs), { recursive: true });
        writeFileSync(abs, content);
      }
    }
    return this;
  }

  move(from: string, to: string): this {
    mkdirSync(path.dirname(path.join(this.dir, to)), { recursive: true });
    renameSync(path.join(this.dir, from), path.join(this.dir, to));
    return this;
  }

  /** Commits everything (added, changed, deleted); returns the commit's hash. */
  commit(message: string): string {
    this.git("add", "-A");
    const date = new Date(Date.UTC(2024, 0, 1, this.commits++)).toISOString();
    execFileSync("git", ["commit", "-q", "--allow-empty", "-m", message], {
      cwd: this.dir,
      env: {
        ...process.env,
        ...ISOLATED,
        GIT_AUTHOR_NAME: "Speky Tests",
        GIT_AUTHOR_EMAIL: "tests@speky.invalid",
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: "Speky Tests",
        GIT_COMMITTER_EMAIL: "tests@speky.invalid",
        GIT_COMMITTER_DATE: date,
      },
    });
    return this.git("rev-parse", "HEAD").trim();
  }
}
