// The files a scan reads, kept by columns (src/scan/walk/file-jobs.ts): each real file once,
// sorted by path, with the targets whose patterns reached it, however many walks found it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FileJobs } from "../../src/scan/walk/walk.js";
import { expandTargets } from "../../src/scan/walk/walk.js";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "speky-file-jobs-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const rel of ["a/x.py", "a/y.py", "b/z.py"]) {
  mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
  writeFileSync(path.join(root, rel), "x = 1\n");
}
symlinkSync("a", path.join(root, "l"));

const rel = (p: string) => path.relative(root, p);
const rows = (jobs: FileJobs) => jobs.map((j) => [rel(j.absPath), rel(j.real), j.targets.map((t) => t.project)]);

describe("scan jobs", () => {
  // speky:speky-ts#TWALK-GLOBS
  it("keeps one walk's files sorted, each its own real path, all of its one target", async () => {
    const { jobs } = await expandTargets([{ project: "one", root, patterns: ["a"] }]);
    expect(rows(jobs)).toEqual([
      ["a/x.py", "a/x.py", ["one"]],
      ["a/y.py", "a/y.py", ["one"]],
    ]);
    expect(jobs.length).toBe(2);
    expect([...jobs].map((j) => rel(j.absPath))).toEqual(["a/x.py", "a/y.py"]);
  });

  // speky:speky-ts#TWALK-GLOBS
  it("merges walks in any order and a file reached through a link into one job per real file, targets in target order", async () => {
    const first = { project: "first", root, patterns: ["b/*.py", "a/*.py"] };
    const second = { project: "second", root, patterns: ["l/x.py", "b/z.py"] };
    const { jobs } = await expandTargets([first, second]);
    expect(rows(jobs)).toEqual([
      ["a/x.py", "a/x.py", ["first", "second"]],
      ["a/y.py", "a/y.py", ["first"]],
      ["b/z.py", "b/z.py", ["first", "second"]],
    ]);
  });

  // speky:speky-ts#TWALK-GLOBS
  it("keeps the path a file was first reached by, and its real path beside it", async () => {
    const { jobs } = await expandTargets([{ project: "p", root, patterns: ["l/*.py", "a/x.py"] }]);
    expect(rows(jobs)).toEqual([
      ["l/x.py", "a/x.py", ["p"]],
      ["l/y.py", "a/y.py", ["p"]],
    ]);
  });
});
