// What a glob reaches (src/fs/globs.ts) and the confinement boundary (src/fs/boundary.ts),
// through the real CLI and server: link cycles, ignore files, paths and links leaving the
// project, and a FIFO outside it that would block whoever opened it. Every child process runs
// under a time limit: a hang fails the test instead of CI.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, connect } from "../support/mcp.js";
import { SPEKY_BIN, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-walk-confine-");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

function write(rel: string, content: string): string {
  const file = path.join(scratch, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const SECRET = "walk-confine-secret-5e1f";

/** speky with a time limit; an environment holding a secret that must never be printed. */
function speky(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [SPEKY_BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, SPEKY_WALK_SECRET: SECRET },
  });
  expect(r.signal, `timed out: ${r.stderr}`).toBeNull();
  const out = r.stdout + r.stderr;
  expect(out).not.toContain(SECRET);
  return { status: r.status, out };
}

function gitInit(dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "-q", dir]);
}

// The project (a git work tree) and, beside it, what it must not reach.
const proj = path.join(scratch, "proj");
gitInit(proj);
write("outside/notes.csv", `date,from,text\n2024-01-01,x,${SECRET}\n`);
write("outside/secret.yaml", `kind: requirements\ncategory: c\nrequirements:\n  - id: ${SECRET}\n    long: x\n`);
write("outside/code/leak.py", `# ${T}p#LEAK\ndef leak():\n    pass\n`);
execFileSync("mkfifo", [path.join(scratch, "outside/pipe.py")]);
write("proj/specs/reqs.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
write("proj/src/ok.py", `# ${T}p#R1\ndef ok():\n    pass\n`);

function manifest(name: string, body: string): string {
  write(`proj/${name}`, `kind: project\nname: p\n${body}`);
  return name;
}

describe("confinement", () => {
  // speky:speky-ts#TWALK-CONFINE
  it("refuses paths and globs leaving the project at their manifest line, quoting nothing", () => {
    const cases: [string, string, RegExp][] = [
      [
        "environ.yaml",
        "files: [specs/reqs.yaml]\ncomments_csvs: [/proc/self/environ]\n",
        /^environ\.yaml:4:17: error: '\/proc\/self\/environ' names the kernel's virtual files/m,
      ],
      [
        "up.yaml",
        "files: [specs/reqs.yaml]\ncomments_csvs: ['../**/*.csv']\n",
        /^up\.yaml:4:17: error: '\.\.\/\*\*\/\*\.csv' reaches outside the project/m,
      ],
      ["etc.yaml", "files: ['/etc/**/*.yaml']\n", /^etc\.yaml:3:9: error: '\/etc\/\*\*\/\*\.yaml' reaches outside the project/m],
      [
        "proc.yaml",
        "files: [specs/reqs.yaml]\ncode_sources: ['/proc/**/*.py']\n",
        /^proc\.yaml:4:16: error: '\/proc\/\*\*\/\*\.py' names the kernel's virtual files/m,
      ],
      [
        "root.yaml",
        "root_directory: /\nfiles: [specs/reqs.yaml]\n",
        /^root\.yaml:3:17: error: root directory '\/' is outside the project/m,
      ],
      [
        "sibling.yaml",
        "files: [../outside/secret.yaml]\n",
        /^sibling\.yaml:3:9: error: '\.\.\/outside\/secret\.yaml' reaches outside the project/m,
      ],
    ];
    for (const [name, body, expected] of cases) {
      manifest(name, body);
      const r = speky(["check", "--no-cache", name], proj);
      expect(r.status, `${name}: ${r.out}`).toBe(1);
      expect(r.out, name).toMatch(expected);
    }
  });

  // speky:speky-ts#TWALK-CONFINE
  it("never opens a FIFO outside the project reached through a link, nor reads files through links leading out", async () => {
    mkdirSync(path.join(proj, "linked"), { recursive: true });
    symlinkSync(path.join(scratch, "outside/pipe.py"), path.join(proj, "linked/pipe.py"));
    symlinkSync(path.join(scratch, "outside/code"), path.join(proj, "linked/code"));
    symlinkSync(path.join(scratch, "outside/secret.yaml"), path.join(proj, "specs/zz-link.yaml"));
    manifest("spec-link.yaml", "files: ['specs/*.yaml']\n");
    manifest("links.yaml", "files: ['specs/reqs.yaml']\ncode_sources: ['src/**/*.py', 'linked/**/*.py']\n");
    // A writer waiting on the FIFO: it stays blocked for as long as nobody opens the FIFO to read.
    const writer = spawn("sh", ["-c", `printf '# ${T}p#FIFO' > '${path.join(scratch, "outside/pipe.py")}'`]);
    children.push(writer);
    const specLink = speky(["check", "--no-cache", "spec-link.yaml"], proj);
    expect(specLink.status).toBe(1);
    expect(specLink.out).toMatch(
      /^spec-link\.yaml:3:9: error: 'specs\/\*\.yaml' reaches outside the project .* through 'specs\/zz-link\.yaml', a link/m,
    );
    for (const args of [
      ["check", "--no-cache", "--format", "json", "links.yaml"],
      ["scan", "--no-cache", "links.yaml"],
    ]) {
      const r = speky(args, proj);
      expect(r.status, r.out).toBe(args[0] === "check" ? 1 : 0);
      expect(r.out).toMatch(/'linked\/\*\*\/\*\.py' reaches outside the project .* through 'linked\/code', a link/);
      expect(r.out).toMatch(/'linked\/\*\*\/\*\.py' reaches outside the project .* through 'linked\/pipe\.py', a link/);
      expect(r.out).not.toContain("LEAK");
      expect(r.out).not.toContain("FIFO");
    }
    // Had any run opened the FIFO for reading, the writer would have finished.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(writer.exitCode).toBeNull();
    writer.kill("SIGKILL");
  });

  // speky:speky-ts#TWALK-CONFINE
  it("reads outside the project with --allow-outside, and always reads paths given on the command line", () => {
    manifest("trusted.yaml", "files: [specs/reqs.yaml]\ncode_sources: ['../outside/code/*.py']\n");
    const refused = speky(["scan", "--no-cache", "trusted.yaml"], proj);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/^trusted\.yaml:4:16: error: '\.\.\/outside\/code\/\*\.py' reaches outside the project/m);
    const trusted = speky(["scan", "--no-cache", "--allow-outside", "trusted.yaml"], proj);
    expect(trusted.status, trusted.out).toBe(0);
    expect(JSON.parse(trusted.out).references.map((r: { id: string }) => r.id)).toEqual(["LEAK"]);
    // A spec file named outright is the user's choice, wherever it is.
    const given = speky(["check", "--no-cache", "../outside/code/../secret.yaml"], proj);
    expect(given.out).not.toMatch(/outside the project/);
  });
});

describe("walks", () => {
  /** The four-link cycle of issue 12: src/a/l1, l2 -> ../b and src/b/m1, m2 -> ../a. */
  function cycleTree(root: string): void {
    write(path.relative(scratch, path.join(root, "src/a/x.py")), `# ${T}p#R1\ndef x():\n    pass\n`);
    write(path.relative(scratch, path.join(root, "src/b/y.py")), `# ${T}p#R1\ndef y():\n    pass\n`);
    for (const [link, to] of [
      ["a/l1", "../b"],
      ["a/l2", "../b"],
      ["b/m1", "../a"],
      ["b/m2", "../a"],
    ]) {
      symlinkSync(to, path.join(root, "src", link));
    }
  }

  // speky:speky-ts#TWALK-GLOBS
  it("walks the four-link cycle linearly: each real file once", () => {
    const root = path.join(scratch, "cycle");
    gitInit(root);
    cycleTree(root);
    write("cycle/speky.yaml", "kind: project\nname: p\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n");
    write("cycle/specs/r.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    const r = speky(["scan", "--no-cache", "speky.yaml"], root);
    expect(r.status, r.out).toBe(0);
    const out = JSON.parse(r.out) as { references: { file: string }[]; stats: { files: number } };
    expect(out.references.map((ref) => ref.file)).toEqual(["src/a/x.py", "src/b/y.py"]);
    expect(out.stats.files).toBe(2);
  });

  // speky:speky-ts#TWALK-GLOBS
  it("reaches dot folders, never .git, and warns at the line of a pattern that matches nothing", () => {
    const root = path.join(scratch, "dots");
    gitInit(root);
    write("dots/.github/scripts/ci.py", `# ${T}p#R1\ndef ci():\n    pass\n`);
    write("dots/.git/hooks/hook.py", `# ${T}p#R1\n`);
    write("dots/specs/r.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    execFileSync("mkfifo", [path.join(root, "specs/fifo.yaml")]);
    write("dots/speky.yaml", "kind: project\nname: p\nfiles: ['specs/*.yaml']\ncode_sources: ['**/*.py', 'nothing/**/*.rs']\n");
    const r = speky(["check", "--no-cache", "--format", "json", "speky.yaml"], root);
    expect(JSON.parse(r.out).findings).toEqual([
      { file: "speky.yaml", line: 4, column: 27, severity: "warning", message: "'nothing/**/*.rs' matched no file" },
    ]);
    const scanned = speky(["scan", "--no-cache", "speky.yaml"], root);
    expect(JSON.parse(scanned.out).references.map((ref: { file: string }) => ref.file)).toEqual([".github/scripts/ci.py"]);
  });

  // speky:speky-ts#TWALK-IGNORE
  it("skips git-ignored code sources unless --no-ignore; spec globs ignore no file", () => {
    const root = path.join(scratch, "ignored");
    gitInit(root);
    write("ignored/.gitignore", "build/\n*.gen.py\ngenerated/\n");
    write("ignored/.ignore", "vendor/\n");
    write("ignored/src/sub/.gitignore", "!keep.gen.py\n");
    for (const rel of ["src/a.py", "build/b.py", "src/x.gen.py", "src/sub/keep.gen.py", "vendor/v.py"]) {
      write(`ignored/${rel}`, `# ${T}p#R1\ndef f():\n    pass\n`);
    }
    write("ignored/generated/r.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    write("ignored/speky.yaml", "kind: project\nname: p\nfiles: ['generated/*.yaml']\ncode_sources: ['**/*.py']\n");
    const files = (args: string[]) => {
      const r = speky(["scan", "--no-cache", ...args, "speky.yaml"], root);
      expect(r.status, r.out).toBe(0);
      return JSON.parse(r.out).references.map((ref: { file: string }) => ref.file);
    };
    expect(files([])).toEqual(["src/a.py", "src/sub/keep.gen.py"]);
    expect(files(["--no-ignore"])).toEqual(["build/b.py", "src/a.py", "src/sub/keep.gen.py", "src/x.gen.py", "vendor/v.py"]);
    // Pre-commit mode applies the same rules to the files it is given.
    // Files counted: the named files checked (the manifest loaded as a spec, the sources scanned).
    const filesChecked = (args: string[]) => {
      const check = speky(["check", "--no-cache", "--format", "json", ...args, "speky.yaml", "build/b.py", "src/a.py"], root);
      expect(check.status, check.out).toBe(0);
      return JSON.parse(check.out).summary.files;
    };
    expect(filesChecked([])).toBe(2);
    expect(filesChecked(["--no-ignore"])).toBe(3);

    // A walk remembered by the scan cache is walked again once an ignore file changes in place.
    const cacheDir = path.join(scratch, "ignored-cache");
    const cached = () => {
      const r = spawnSync(process.execPath, [SPEKY_BIN, "scan", "speky.yaml"], {
        cwd: root,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, SPEKY_CACHE_DIR: cacheDir },
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout).references.map((ref: { file: string }) => ref.file);
    };
    expect(cached()).toEqual(["src/a.py", "src/sub/keep.gen.py"]);
    expect(cached()).toEqual(["src/a.py", "src/sub/keep.gen.py"]);
    writeFileSync(path.join(root, ".gitignore"), "*.gen.py\ngenerated/\n");
    expect(cached()).toEqual(["build/b.py", "src/a.py", "src/sub/keep.gen.py"]);
  });

  // speky:speky-ts#TWALK-NO-BLOCKING
  it("keeps a running server answering while the four-link cycle appears and is walked", async () => {
    const root = path.join(scratch, "live");
    gitInit(root);
    write("live/speky.yaml", "kind: project\nname: p\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n");
    write("live/specs/r.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    write("live/src/first.py", `# ${T}p#R1\ndef first():\n    pass\n`);
    const session = await connect([path.join(root, "speky.yaml")], { cwd: root });
    try {
      expect((await call(session.client, "get_requirement", { id: "R1" })).structured).toBeTruthy();
      cycleTree(root);
      // The reload walks the cycle; calls made meanwhile are answered, and the new model has each file once.
      let files: string[] = [];
      for (let i = 0; i < 200 && files.length < 3; i++) {
        const answer = (await call(session.client, "get_requirement", { id: "R1" })).structured as { code_references?: { file: string }[] };
        files = (answer.code_references ?? []).map((r) => r.file);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(files).toEqual(["src/a/x.py", "src/b/y.py", "src/first.py"]);
    } finally {
      await session.close();
    }
  });
});
