// Issue 48, the writers: every file the tool writes (scan --output, export --out, report --out,
// speky's pages) goes through src/fs/write-output.ts. A checkout's planted links are never
// written through: a link at the output file is replaced by a regular file, its target
// untouched; a link on the way that leads out of the working folder refuses the run, and
// nothing is created outside. The commands run as children with a temporary HOME.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OutputPathError, outputFolder, writeNewFile, writeOutputFile } from "../../src/fs/write-output.js";
import { runSpeky, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-hostile-writers-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BASHRC = "# the victim's shell start-up\nexport PS1='$ '\n";
const EVIL_FILE = "tests/$(touch PWNED)/x.py";

/** A project whose source file name is a shell command, a fake home with its .bashrc, and an empty victim folder. */
function hostileTree(name: string) {
  const root = path.join(scratch, name);
  const home = path.join(root, "home");
  const victim = path.join(root, "victim");
  const repo = path.join(root, "repo");
  for (const dir of [home, victim, path.join(repo, path.dirname(EVIL_FILE)), path.join(repo, "docs")]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(home, ".bashrc"), BASHRC);
  writeFileSync(path.join(repo, "speky.yaml"), "kind: project\nname: p\nfiles: [reqs.yaml]\ncode_sources: ['tests/**/*.py']\n");
  writeFileSync(path.join(repo, "reqs.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
  writeFileSync(path.join(repo, EVIL_FILE), `# ${T}p#R1\ndef test_x():\n    pass\n`);
  const run = (args: string[]) => {
    // speky's own command line (`speky FILE -o DIR`) takes no --no-cache.
    const r = runSpeky([...args, ...(args[0] === "-o" ? [] : ["--no-cache"]), "speky.yaml"], repo, { HOME: home });
    return { status: r.status, out: r.stdout + r.stderr };
  };
  const untouched = () => {
    expect(readFileSync(path.join(home, ".bashrc"), "utf8")).toBe(BASHRC);
    expect(readdirSync(home)).toEqual([".bashrc"]);
    expect(readdirSync(victim)).toEqual([]);
    for (const dir of [root, home, repo]) expect(existsSync(path.join(dir, "PWNED"))).toBe(false);
  };
  return { root, home, victim, repo, run, untouched };
}

describe("a link planted at the output file", () => {
  // speky:speky-ts#TSEC-WRITE-FILE-LINK
  it("is replaced by a regular file, never written through: scan's JSON never reaches ~/.bashrc", () => {
    const t = hostileTree("file-link");
    for (const [command, option] of [
      ["scan", "--output"],
      ["export", "--out"],
    ]) {
      const out = path.join(t.repo, "refs.json");
      rmSync(out, { force: true });
      symlinkSync(path.join(t.home, ".bashrc"), out);
      const r = t.run([command, option, "refs.json"]);
      expect(r.status, r.out).toBe(0);
      t.untouched();
      expect(lstatSync(out).isFile()).toBe(true);
      // The file name that would run a command in a shell start-up file is data in a regular file.
      expect(readFileSync(out, "utf8")).toContain(EVIL_FILE);
      expect(readdirSync(t.repo).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    }
    // A link staying inside is replaced all the same, its target untouched.
    writeFileSync(path.join(t.repo, "docs/keep.json"), "{}\n");
    rmSync(path.join(t.repo, "refs.json"));
    symlinkSync("docs/keep.json", path.join(t.repo, "refs.json"));
    expect(t.run(["scan", "--output", "refs.json"]).status).toBe(0);
    expect(readFileSync(path.join(t.repo, "docs/keep.json"), "utf8")).toBe("{}\n");
    expect(lstatSync(path.join(t.repo, "refs.json")).isFile()).toBe(true);
  });
});

describe("a link planted on the way to the output", () => {
  /** Each writer's run through the links of `t`: refused with `status`, one line naming the link, nothing created outside. */
  function refused(t: ReturnType<typeof hostileTree>, cases: [string[], number][]): void {
    for (const [args, status] of cases) {
      const r = t.run(args);
      expect(r.status, `${args.join(" ")}: ${r.out}`).toBe(status);
      expect(r.out).toMatch(/leads out of the working folder through '(out|dangling|site)', a symbolic link|'out' is a symbolic link/);
      expect(r.out).not.toMatch(/\n\s+at /);
      t.untouched();
    }
    expect(existsSync(path.join(t.root, "missing"))).toBe(false);
  }

  function linkedTree(name: string) {
    const t = hostileTree(name);
    symlinkSync(t.victim, path.join(t.repo, "out"));
    symlinkSync(t.victim, path.join(t.repo, "site"));
    symlinkSync(path.join(t.root, "missing"), path.join(t.repo, "dangling"));
    return t;
  }

  // speky:speky-ts#TSEC-WRITE-PARENT-LINK
  it("refuses scan and export when it leads out of the working folder, and creates nothing outside", () => {
    refused(linkedTree("parent-link-files"), [
      [["scan", "--output", "out/refs.json"], 2],
      [["scan", "--output", "out/sub/refs.json"], 2],
      [["scan", "--output", "dangling/refs.json"], 2],
      [["scan", "--output", "docs/../out/refs.json"], 2],
      [["export", "--out", "out/model.json"], 2],
    ]);
  });

  // speky:speky-ts#TSEC-WRITE-PARENT-LINK
  it("refuses the report and speky's pages when it leads out of the working folder, and creates nothing outside", () => {
    // The MyST case: site -> victim with -o site/markdown wrote 13 pages there.
    refused(linkedTree("parent-link-folders"), [
      [["report", "--out", "out/trace"], 2],
      [["report", "--format", "markdown", "--out", "out/trace"], 2],
      [["-o", "site/markdown"], 1],
      [["-o", "out"], 1],
    ]);
  });

  // speky:speky-ts#TSEC-WRITE-PARENT-LINK
  it("follows links that stay inside, and writes where the user names a place outside", () => {
    const t = hostileTree("inside-link");
    symlinkSync("docs", path.join(t.repo, "build"));
    for (const args of [
      ["scan", "--output", "build/refs.json"],
      ["export", "--out", "build/model.json"],
      ["-o", "build/markdown"],
      ["report", "--out", "build/site"],
    ]) {
      const r = t.run(args);
      expect(r.status, `${args.join(" ")}: ${r.out}`).toBe(0);
    }
    expect(readdirSync(path.join(t.repo, "docs")).sort()).toEqual(["markdown", "model.json", "refs.json", "site"]);
    const named = path.join(t.root, "chosen.json");
    expect(t.run(["scan", "--output", named]).status).toBe(0);
    expect(JSON.parse(readFileSync(named, "utf8")).references).toHaveLength(1);
    t.untouched();
  });
});

describe("the writers' module", () => {
  // speky:speky-ts#TSEC-WRITE-MODULE
  it("writes beside and renames, leaves no temporary file when the rename fails, and creates folder files afresh", () => {
    const dir = tempDir("speky-write-output-");
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "keep\n");
    symlinkSync(victim, path.join(dir, "planted"));
    writeOutputFile("planted", "new\n", { cwd: dir });
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    expect(readFileSync(path.join(dir, "planted"), "utf8")).toBe("new\n");
    // A folder in the file's place: the rename fails, nothing is left beside it.
    mkdirSync(path.join(dir, "a-folder"));
    expect(() => writeOutputFile("a-folder", "x", { cwd: dir })).toThrow(/EISDIR|ENOTEMPTY|EEXIST|directory/);
    expect(readdirSync(dir).sort()).toEqual(["a-folder", "planted", "victim.txt"]);
    // Pieces are joined as they are written.
    writeOutputFile("pieces.txt", ["a", "b", "c"], { cwd: dir });
    expect(readFileSync(path.join(dir, "pieces.txt"), "utf8")).toBe("abc");
    // A folder's files are created afresh: a link at the name is an error, its target untouched.
    symlinkSync(victim, path.join(dir, "page.md"));
    expect(() => writeNewFile(path.join(dir, "page.md"), "x")).toThrow(/EEXIST/);
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    expect(writeNewFile(path.join(dir, "fresh.md"), "héllo")).toBe(6);
    // Folders: made with their parents, a link or a file in the place refused.
    expect(outputFolder("x/y", { cwd: dir })).toBe("made");
    expect(outputFolder("x/y", { cwd: dir })).toBe("folder");
    expect(() => outputFolder("page.md", { cwd: dir })).toThrow(OutputPathError);
    expect(() => outputFolder("fresh.md", { cwd: dir })).toThrow(/exists and is not a folder/);
    rmSync(dir, { recursive: true, force: true });
  });
});
