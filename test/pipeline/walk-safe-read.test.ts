// The shared safe-open helper (src/fs/safe-read.ts) and the readers built on it, against
// files that would block or never end. Each case runs in a child process with a time limit:
// a blocking open would freeze this process, where no vitest timeout could fire.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../support/process.js";

const scratch = tempDir("speky-walk-safe-read-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const dist = (rel: string) => JSON.stringify(pathToFileURL(path.join(REPO, "dist", rel)).href);

/** Runs an ES module body in a child; its stdout parsed as JSON. A hang fails after `ms`. */
function isolated(body: string, ms = 10_000): unknown {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", body], { encoding: "utf8", timeout: ms, cwd: scratch });
  expect(r.signal, `timed out or killed: ${r.stderr}`).toBeNull();
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("safe-read", () => {
  // speky:speky-ts#TWALK-SAFE-READ
  it("refuses a FIFO, a device, a directory, a link where none is expected and an oversize file, without blocking", () => {
    execFileSync("mkfifo", [path.join(scratch, "fifo")]);
    mkdirSync(path.join(scratch, "dir"));
    writeFileSync(path.join(scratch, "big"), Buffer.alloc(2048));
    writeFileSync(path.join(scratch, "ok"), "hello");
    symlinkSync("ok", path.join(scratch, "link"));
    const out = isolated(`
      import { readRegularSync, readRegular } from ${dist("fs/safe-read.js")};
      const cases = [["fifo", {}], ["/dev/zero", {}], ["dir", {}], ["big", { maxBytes: 1024 }], ["link", { noFollow: true }], ["link", {}], ["ok", {}], ["missing", {}]];
      const show = (r) => r.problem ? [r.code, r.problem, r.kind ?? null] : ["read", r.bytes.toString()];
      const out = [];
      for (const [file, options] of cases) out.push([file, show(readRegularSync(file, options)), show(await readRegular(file, options))]);
      console.log(JSON.stringify(out));
    `) as [string, unknown, unknown][];
    const expected = [
      ["fifo", ["NOT_REGULAR", "this is not a regular file", "a FIFO"]],
      ["/dev/zero", ["NOT_REGULAR", "this is not a regular file", "a device"]],
      ["dir", ["EISDIR", "this is a directory, not a file", null]],
      ["big", ["TOO_LARGE", "file is too large (0.0 MB; the limit is 0 MB)", null]],
      ["link", ["ELOOP", "a symbolic link, not followed here", null]],
      ["link", ["read", "hello"]],
      ["ok", ["read", "hello"]],
      ["missing", ["ENOENT", "file not found", null]],
    ];
    expect(out).toEqual(expected.map(([file, r]) => [file, r, r]));
  });

  // speky:speky-ts#TWALK-SAFE-READ
  it("scans past a source file swapped for a FIFO between the walk and its read", () => {
    const tree = path.join(scratch, "race");
    mkdirSync(path.join(tree, "src"), { recursive: true });
    const T = "speky" + ":";
    writeFileSync(path.join(tree, "src/a.py"), `# ${T}p#A\ndef a():\n    pass\n`);
    writeFileSync(path.join(tree, "src/b.py"), `# ${T}p#B\ndef b():\n    pass\n`);
    // The walk sees two regular files; then b.py becomes a FIFO; then the files are read.
    const out = isolated(`
      import { execFileSync } from "node:child_process";
      import { rmSync } from "node:fs";
      import { expandTargets } from ${dist("scan/walk/walk.js")};
      import { runTask } from ${dist("scan/read/worker-task.js")};
      const target = { project: "p", root: ${JSON.stringify(tree)}, patterns: ["src/*.py"] };
      const { jobs } = await expandTargets([target]);
      rmSync(${JSON.stringify(path.join(tree, "src/b.py"))});
      execFileSync("mkfifo", [${JSON.stringify(path.join(tree, "src/b.py"))}]);
      const out = [];
      // Stamped (a scan with a cache: open, fstat, read) and unstamped (--no-cache: open, read).
      for (const unstamped of [false, true]) {
        for (const job of jobs) {
          const r = await runTask({ absPath: job.absPath, cached: null, unstamped });
          out.push(r.error ?? r.entry.result.tags.map((t) => t.id));
        }
      }
      console.log(JSON.stringify(out));
    `);
    const fifo = "cannot read file: not a regular file (a FIFO), not read";
    expect(out).toEqual([["A"], fifo, ["A"], fifo]);
  });

  // speky:speky-ts#TWALK-SAFE-READ
  it("refuses a spec file or a check argument that is a FIFO or a device, without blocking", () => {
    const dir = path.join(scratch, "spec");
    mkdirSync(dir);
    execFileSync("mkfifo", [path.join(dir, "fifo.yaml")]);
    symlinkSync("/dev/zero", path.join(dir, "zero.yaml"));
    const out = isolated(`
      import { readSpecFile } from ${dist("loader/files.js")};
      console.log(JSON.stringify([await readSpecFile(${JSON.stringify(path.join(dir, "fifo.yaml"))}), await readSpecFile(${JSON.stringify(path.join(dir, "zero.yaml"))})]));
    `);
    expect(out).toEqual([{ problem: "this is not a regular file" }, { problem: "this is not a regular file" }]);
    // pre-commit passes file names after the manifest: one that is a FIFO is no spec, and no hang.
    writeFileSync(path.join(dir, "speky.yaml"), "kind: project\nname: p\nfiles: []\n");
    const r = spawnSync(process.execPath, [path.join(REPO, "bin/speky.js"), "check", "--no-cache", "speky.yaml", "fifo.yaml"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});
