// The specification loader against the fixture trees (fixtures/specs/), and against trees
// built in a temporary directory for what fixtures cannot hold (huge files, link loops, git).
// SPEKY_UPDATE_FIXTURES=1 rewrites expected.json and the expected.txt files: review the diff.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics.js";
import { MAX_FILE_BYTES } from "../../src/loader/files.js";
import { loadSpecs } from "../../src/loader/load.js";
import type { LoadResult } from "../../src/loader/types.js";

const repo = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(repo, "fixtures/specs");
const update = process.env.SPEKY_UPDATE_FIXTURES === "1";

function lines(result: LoadResult): string {
  return `${result.diagnostics.map(formatDiagnostic).join("\n")}\n`;
}

/** Compares with a golden file, or rewrites it in update mode. */
function golden(file: string, actual: string, label: string): void {
  if (update) fs.writeFileSync(file, actual);
  expect.soft(actual, label).toBe(fs.readFileSync(file, "utf8"));
}

/**
 * What an invalid case loads: the paths in args.txt (`-C x` for a CSV), else its manifest
 * (speky.yaml or speky.toml), else all its YAML and TOML files, with its CSVs as -C files.
 */
function caseArguments(dir: string): { paths: string[]; csvs: string[] } {
  const files = fs.readdirSync(dir).sort();
  if (files.includes("args.txt")) {
    const args = fs.readFileSync(path.join(dir, "args.txt"), "utf8").split("\n").filter(Boolean);
    return {
      paths: args.filter((a) => !a.startsWith("-C ")),
      csvs: args.filter((a) => a.startsWith("-C ")).map((a) => a.slice(3)),
    };
  }
  const manifests = files.filter((f) => /^speky\.(ya?ml|toml)$/.test(f));
  if (manifests.length > 0) return { paths: manifests, csvs: [] };
  return { paths: files.filter((f) => /\.(ya?ml|toml)$/.test(f)), csvs: files.filter((f) => f.endsWith(".csv")) };
}

describe("loadSpecs on fixtures", () => {
  // speky:speky-ts#TSPEC-LOAD
  it("loads the valid tree (every construct) into the expected model", async () => {
    const dir = path.join(fixtures, "valid");
    const result = await loadSpecs(["speky.yaml"], { cwd: dir });
    expect(result.diagnostics).toEqual([]);
    expect(result.specs).not.toBeNull();
    expect(Object.isFrozen(result.specs!.requirements[0].tags)).toBe(true);
    const json = JSON.stringify(result.specs, null, 2).replaceAll(dir, "<fixture>").replaceAll(repo, "<repo>");
    golden(path.join(dir, "expected.json"), `${json}\n`, "expected.json");
  });

  // speky:speky-ts#TSPEC-INVALID
  it("reports every problem of each invalid case, as expected.txt lists them", async () => {
    const root = path.join(fixtures, "invalid");
    const cases = fs.readdirSync(root).sort();
    expect(cases.length).toBeGreaterThan(10);
    for (const name of cases) {
      const dir = path.join(root, name);
      const { paths, csvs } = caseArguments(dir);
      const result = await loadSpecs(paths, { cwd: dir, csvs });
      const hasError = result.diagnostics.some((d) => d.severity === "error");
      expect.soft(result.specs === null, `${name}: specs is null exactly when there is an error`).toBe(hasError);
      golden(path.join(dir, "expected.txt"), lines(result), `${name}/expected.txt`);
    }
  });
});

describe("loadSpecs on generated trees", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "speky-spec-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Writes files (path → content) under a fresh directory; returns it. */
  function tree(name: string, files: Record<string, string>): string {
    const dir = path.join(tmp, name);
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    }
    return dir;
  }

  const requirement = (id: string) => `kind: requirements\ncategory: functional\nrequirements:\n  - id: ${id}\n    long: text\n`;

  it("refuses a YAML alias bomb quickly, with a message", async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const dir = tree("bomb", { "bomb.yaml": `kind: requirements\n${levels.join("\n")}\n` });
    const result = await loadSpecs(["bomb.yaml"], { cwd: dir });
    expect(result.specs).toBeNull();
    expect(lines(result)).toContain("bomb.yaml: error: too many YAML alias expansions");
  });

  it("refuses a file over 20 MB without reading it", async () => {
    const dir = tree("big", {});
    fs.mkdirSync(dir, { recursive: true });
    // Sparse: large on paper, instant to create.
    fs.writeFileSync(path.join(dir, "big.yaml"), "");
    fs.truncateSync(path.join(dir, "big.yaml"), MAX_FILE_BYTES + 1024 * 1024);
    const result = await loadSpecs(["big.yaml"], { cwd: dir });
    expect(lines(result)).toBe("big.yaml: error: file is too large (21.0 MB; the limit is 20 MB)\n");
  });

  it("follows symbolic links without looping on a link cycle", async () => {
    const dir = tree("links", {
      "speky.yaml": "kind: project\nname: links\nfiles: ['**/*.yaml']\n",
      "specs/a.yaml": requirement("REQ-A"),
      "specs/deep/b.yaml": requirement("REQ-B"),
      "outside/c.yaml": requirement("REQ-C"),
    });
    fs.symlinkSync("..", path.join(dir, "specs/deep/up"));
    fs.symlinkSync(".", path.join(dir, "specs/self"));
    fs.symlinkSync("../outside", path.join(dir, "specs/alias"));
    const result = await loadSpecs(["speky.yaml"], { cwd: dir });
    expect(result.diagnostics).toEqual([]);
    const loaded = result.specs!.requirements.map((r) => `${r.id} ${r.source_file}`);
    // Each file once, under the first of its paths in sorted order (specs/alias/c.yaml is c.yaml).
    expect(loaded).toEqual(["REQ-C outside/c.yaml", "REQ-A specs/a.yaml", "REQ-B specs/deep/b.yaml"]);
  });

  it("loads each file once, even when reached twice or through a cycle of manifests", async () => {
    const dir = tree("cycle", {
      "a.yaml": "kind: project\nname: a\nfiles: [b/b.yaml, r.yaml, r.yaml]\n",
      "b/b.yaml": "kind: project\nname: b\nroot_directory: ..\nfiles: [a.yaml, r.yaml, b/s.yaml]\n",
      "r.yaml": requirement("REQ-R"),
      "b/s.yaml": requirement("REQ-S"),
    });
    const result = await loadSpecs(["r.yaml", "a.yaml", "./a.yaml"], { cwd: dir });
    expect(result.diagnostics).toEqual([]);
    const specs = result.specs!;
    expect(specs.manifests.map((m) => [m.name, m.file, m.parent])).toEqual([
      ["a", "a.yaml", null],
      ["b", "b/b.yaml", "a"],
    ]);
    // r.yaml was given directly first: displayed as given, with no project.
    expect(specs.requirements.map((r) => [r.id, r.source_file, r.project])).toEqual([
      ["REQ-R", "r.yaml", null],
      ["REQ-S", "b/s.yaml", "b"],
    ]);
    expect(specs.files).toEqual(["r.yaml", "a.yaml", "b/b.yaml", "b/s.yaml"].map((f) => path.join(dir, f)));
  });

  it("displays a path given on the command line as given, and loads -C CSV files", async () => {
    const dir = tree("given", {
      "specs/r.yaml": requirement("REQ-1"),
      "notes.csv": "about,from,date,text,external\nREQ-1,Ada,1/2/2025,Hello,1\n",
    });
    const result = await loadSpecs(["./specs/../specs/r.yaml"], { cwd: dir, csvs: ["notes.csv"] });
    expect(result.diagnostics).toEqual([]);
    expect(result.specs!.requirements[0].source_file).toBe("./specs/../specs/r.yaml");
    expect(result.specs!.comments).toEqual([
      {
        about: "REQ-1",
        date: "1/2/2025",
        from: "Ada",
        text: "Hello",
        external: true,
        loc: { file: "notes.csv", line: 2, column: 1 },
      },
    ]);
  });

  it("reads source_links 'auto' from git", async () => {
    const dir = tree("git", {
      "specs/speky.yaml": "kind: project\nname: g\nfiles: [r.yaml]\nsource_links:\n  url: auto\n",
      "specs/r.yaml": requirement("REQ-1"),
    });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
    git("init", "-q", "-b", "trunk");
    git("remote", "add", "origin", "git@example.com:org/repo.git");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init");
    const result = await loadSpecs(["specs/speky.yaml"], { cwd: dir });
    expect(result.diagnostics).toEqual([]);
    expect(result.specs!.manifests[0].source_links).toEqual({
      url: "https://example.com/org/repo",
      branch: "trunk",
      gitRoot: dir,
    });
  });

  it("warns, and makes no links, where git cannot tell", async () => {
    const dir = tree("nogit", {
      "speky.yaml": "kind: project\nname: n\nfiles: [r.yaml]\nsource_links:\n  url: auto\n  branch: main\n",
      "r.yaml": requirement("REQ-1"),
    });
    // In case the temporary directory is inside a work tree.
    process.env.GIT_CEILING_DIRECTORIES = tmp;
    const result = await loadSpecs(["speky.yaml"], { cwd: dir }).finally(() => {
      delete process.env.GIT_CEILING_DIRECTORIES;
    });
    expect(result.specs!.manifests[0].source_links).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(formatDiagnostic(result.diagnostics[0])).toMatch(
      new RegExp(
        "^speky\\.yaml:5:3: warning: source_links: cannot read the git remote URL " +
          "\\(git remote get-url origin: .*\\); code references will have no links$",
      ),
    );
  });
});
