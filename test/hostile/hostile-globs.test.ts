// Issue 25, patterns from the repository: manifest globs and .gitignore rules are matched in
// time bounded by name × pattern (src/fs/wildmatch/), with Path.glob's meaning (Python's own
// pathlib is the reference), gitignore's (git itself is the reference) and picomatch's braces;
// the hangs run as real commands under a time limit (a hang fails, no timing asserted).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandGlob } from "../../src/fs/globs.js";
import { compileWildcard, MAX_GLOB_ALTERNATIVES, MAX_GLOB_CHARS } from "../../src/fs/wildmatch/wildcard.js";
import { SPEKY_BIN, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-hostile-globs-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <V>(values: readonly V[]) => values[int(values.length)] };
}

function write(file: string, content = ""): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function speky(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [SPEKY_BIN, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  expect(r.signal, `timed out (a hang): ${r.stderr}`).toBeNull();
  return { status: r.status, stdout: r.stdout, out: r.stdout + r.stderr };
}

/** A random tree of empty files under `dir`; names hold dots, brackets, spaces and stars. */
function randomTree(dir: string, rng: ReturnType<typeof random>, names: readonly string[], count: number): string[] {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(names));
    const rel = parts.join("/");
    try {
      write(path.join(dir, rel));
      files.push(rel);
    } catch {
      // a file where a folder was wanted (or the reverse): skipped
    }
  }
  return files;
}

const ours = async (root: string, pattern: string, ignore = false) =>
  (await expandGlob(root, pattern, { boundary: null, ignore, folder: null })).files.map((f) => path.relative(root, f.abs)).sort();

describe("manifest globs", () => {
  // speky:speky-ts#TSEC-GLOB-LINEAR
  it("reach the files Python's Path.glob reaches, for 600 generated patterns over generated trees", async () => {
    const rng = random(25);
    const names = ["a", "b", "ab", ".x", "a.py", "b.ts", "[a]", "a b", "ba", "c"];
    const tokens = ["a", "b", "*", "?", "[ab]", "[!a]", "[a-c]", "[]a]", ".", "py", "/", "**/", "*.py", "x", "["];
    const cases: { root: string; patterns: string[] }[] = [];
    for (let round = 0; round < 20; round++) {
      const root = path.join(scratch, `py-${round}`);
      randomTree(root, rng, names, 30);
      const patterns: string[] = [];
      while (patterns.length < 30) {
        const p = Array.from({ length: 1 + rng.int(6) }, () => rng.pick(tokens)).join("");
        // Python 3.11 refuses `**` inside a part, and gives folders only for a last `**`.
        if (p.startsWith("/") || p.endsWith("/") || p.includes("//") || /\*\*(?!\/)|[^/]\*\*/.test(p)) continue;
        if (p.split("/").some((part) => part === "." || part === "..")) continue;
        patterns.push(p);
      }
      cases.push({ root, patterns });
    }
    const script = [
      "import json, sys, os",
      "from pathlib import Path",
      "out = []",
      "for case in json.load(sys.stdin):",
      "    root = Path(case['root'])",
      "    out.append([sorted(os.path.relpath(p, root) for p in root.glob(pat) if p.is_file()) for pat in case['patterns']])",
      "print(json.dumps(out))",
    ].join("\n");
    const theirs = JSON.parse(execFileSync("/usr/bin/python3", ["-c", script], { input: JSON.stringify(cases), encoding: "utf8" }));
    let compared = 0;
    for (const [i, { root, patterns }] of cases.entries()) {
      for (const [j, pattern] of patterns.entries()) {
        expect(await ours(root, pattern), `${pattern} in ${root}`).toEqual([...new Set(theirs[i][j] as string[])].sort());
        compared++;
      }
    }
    expect(compared).toBe(600);
  });

  // speky:speky-ts#TSEC-GLOB-LINEAR
  it("expand braces as picomatch did, on 20,000 generated patterns and names", () => {
    const picomatch = createRequire(import.meta.url)("picomatch") as (p: string, o: object) => (s: string) => boolean;
    const rng = random(2025);
    const tokens = ["a", "b", ".", "*", "?", "[ab]", "/", "**/", "{a,b}", "{a,bb/c}", "{,x}", "{a,{b,c}}", "x", "\\*", "[a-c]"];
    const nameTokens = ["a", "b", ".", "/", "c", "x", "*", "bb"];
    let compared = 0;
    while (compared < 20_000) {
      const p = Array.from({ length: 1 + rng.int(7) }, () => rng.pick(tokens)).join("");
      const s = Array.from({ length: 1 + rng.int(8) }, () => rng.pick(nameTokens)).join("");
      if (p.startsWith("/") || p.includes("//") || s.startsWith("/") || s.endsWith("/") || s.includes("//")) continue;
      // A walk never names `.` or `..`, nor starts a pattern with `./` (the base drops it).
      if (s.split("/").some((part) => part === "." || part === "..") || p.startsWith(".") || p.includes("/.")) continue;
      // `**` inside a part: picomatch's own reading (Python refuses it; gitignore's is tested below);
      // picomatch's `*.*` never matched a name ending in `.` (fnmatch's does), its `x/**` matched `x`.
      if (/[^/]\*\*|\*\*[^/]/.test(p) || /\.(\/|$)/.test(s) || p.endsWith("/**")) continue;
      const wildcard = compileWildcard(p, { braces: true });
      if ("refused" in wildcard) continue; // past MAX_GLOB_ALTERNATIVES: tested below
      expect(wildcard.match(s), `${p} against ${s}`).toBe(picomatch(p, { dot: true, nonegate: true })(s));
      compared++;
    }
    // picomatch read `[!a]` as the class of `!` and `a`; Path.glob (and now we) as "not a".
    const notA = compileWildcard("[!a]", { braces: true });
    expect("match" in notA && [notA.match("a"), notA.match("!"), notA.match("b")]).toEqual([false, true, true]);
  });

  // speky:speky-ts#TSEC-GLOB-LINEAR
  it("run the issue's backtracking patterns through check and scan to the end, and refuse patterns past the bounds at their line", () => {
    const dir = path.join(scratch, "stars");
    const name = "a".repeat(40);
    write(path.join(dir, `src/${name}`), `# ${T}p#R1\n`);
    write(path.join(dir, `specs/${name}.yaml`), "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    write(path.join(dir, "specs/r.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R2\n    long: x\n");
    const stars = `${"*a".repeat(30)}b`;
    write(
      path.join(dir, "speky.yaml"),
      `kind: project\nname: p\nfiles: ['specs/r.yaml', 'specs/${stars}.yaml']\ncode_sources: ['src/${stars}', 'src/${"*a".repeat(30)}']\n`,
    );
    const check = speky(["check", "--no-cache", "speky.yaml"], dir);
    expect(check.out).toMatch(/speky\.yaml:3:25: warning: 'specs\/\*a\*a.*' matched no file/);
    expect(check.status, check.out).toBe(0);
    const scan = speky(["scan", "--no-cache", "speky.yaml"], dir);
    expect(scan.status, scan.out).toBe(0);
    // The second pattern reaches the 40-character name: its tag is found (an unknown-language warning).
    expect(JSON.parse(scan.stdout).diagnostics.map((d: { file: string }) => d.file)).toContain(`src/${name}`);

    const long = `src/${"x".repeat(MAX_GLOB_CHARS)}*`;
    const braces = `src/${"{a,b}".repeat(7)}/*.py`;
    write(path.join(dir, "bounds.yaml"), `kind: project\nname: p\nfiles: [specs/r.yaml]\ncode_sources: ['${long}', '${braces}']\n`);
    const refused = speky(["check", "--no-cache", "bounds.yaml"], dir);
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(
      /^bounds\.yaml:4:16: error: 'src\/x{20,}.*' \(1,029 characters\) is too long a pattern \(1,025 characters; the limit is 1,024\): refused$/m,
    );
    expect(refused.out).toMatch(
      new RegExp(
        `^bounds\\.yaml:4:\\d+: error: 'src/\\{a,b\\}.*' has too many brace alternatives \\(the limit is ${MAX_GLOB_ALTERNATIVES}\\): refused$`,
        "m",
      ),
    );
    expect(refused.out.length).toBeLessThan(2_000);
  });
});

describe(".gitignore rules", () => {
  // speky:speky-ts#TSEC-GLOB-LINEAR
  it("exclude what git excludes, for 150 generated trees of rules at several levels", async () => {
    const rng = random(1225);
    const names = ["a", "b", "ab", ".x", "c.py", "a.py", "ba", "d", "a b", "#a", "!a", "]"];
    const tokens = ["a", "b", "*", "?", "[ab]", "[!a]", "**/", "/", ".py", "c", "d", "**", "\\*", " ", "#", "\\ ", "[a-c]", "[]a]", "!"];
    const rules = () =>
      Array.from(
        { length: 1 + rng.int(4) },
        () =>
          (rng.int(4) === 0 ? "!" : "") +
          Array.from({ length: 1 + rng.int(4) }, () => rng.pick(tokens)).join("") +
          (rng.int(4) === 0 ? "/" : ""),
      ).join("\n");
    for (let round = 0; round < 150; round++) {
      const root = path.join(scratch, `git-${round}`);
      execFileSync("git", ["init", "-q", root]);
      randomTree(root, rng, names, 40);
      write(path.join(root, ".gitignore"), `${rules()}\n`);
      for (const sub of ["a", "b", "a/b"]) {
        if (rng.int(2) === 0) continue;
        try {
          write(path.join(root, sub, ".gitignore"), `${rules()}\n`);
        } catch {
          // a file named like the folder
        }
      }
      const git = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
        .split("\n")
        .filter((f) => f !== "" && !f.endsWith(".gitignore"))
        .sort();
      const found = (await ours(root, "**/*", true)).filter((f) => !f.endsWith(".gitignore"));
      if (found.join("\n") !== git.join("\n")) {
        // Which rule git applied to each path on which we differ.
        const differ = [...found.filter((f) => !git.includes(f)), ...git.filter((f) => !found.includes(f))];
        const why = spawnSync("git", ["check-ignore", "-v", "--no-index", "--", ...differ], { cwd: root, encoding: "utf8" }).stdout;
        const rulesText = execFileSync("sh", ["-c", "head -50 .gitignore */.gitignore */*/.gitignore 2>/dev/null || true"], {
          cwd: root,
          encoding: "utf8",
        });
        expect(found, `git says:\n${why}\nrules:\n${rulesText}`).toEqual(git);
      }
    }
  });

  // speky:speky-ts#TSEC-GLOB-LINEAR
  it("run the issue's a/**/ rules over a deep tree to the end", () => {
    const dir = path.join(scratch, "deep");
    execFileSync("git", ["init", "-q", dir]);
    const deep = `${"a/".repeat(40)}x.py`;
    write(path.join(dir, deep), `# ${T}p#R1\ndef f():\n    pass\n`);
    write(path.join(dir, `${"a/".repeat(20)}y.py`), `# ${T}p#R1\ndef g():\n    pass\n`);
    // Twenty-fold `a/**/` rules ending in names no file has: nothing is excluded, every path is tried.
    write(path.join(dir, ".gitignore"), `${"a/**/".repeat(20)}b\n${"**/a/".repeat(20)}c\n/${"a/**/".repeat(10)}*z\n`);
    write(path.join(dir, "speky.yaml"), "kind: project\nname: p\nfiles: [r.yaml]\ncode_sources: ['**/*.py']\n");
    write(path.join(dir, "r.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    const scan = speky(["scan", "--no-cache", "speky.yaml"], dir);
    expect(scan.status, scan.out).toBe(0);
    expect(JSON.parse(scan.stdout).references.map((r: { file: string }) => r.file)).toEqual([deep, `${"a/".repeat(20)}y.py`]);
  });
});
