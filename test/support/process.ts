// Run our real binaries as child processes, and give each test its own copy of a fixture.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SPEKY_BIN = path.join(REPO, "bin/speky.js");

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runSpeky(args: string[], cwd = REPO, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [SPEKY_BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix = "speky-ts-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Temporary folders made by `tempDir`, removed together by `remove` (a suite's afterAll): installs, builds and repositories add up. */
export function scratchFolders(): { tempDir: (prefix: string) => string; remove: () => Promise<void> } {
  const made: string[] = [];
  return {
    tempDir(prefix) {
      const dir = tempDir(prefix);
      made.push(dir);
      return dir;
    },
    async remove() {
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** A private copy of fixtures/<name>, so a test may edit it. */
export function copyFixture(name: string): string {
  const dir = tempDir();
  cpSync(path.join(REPO, "fixtures", name), dir, { recursive: true });
  return dir;
}
