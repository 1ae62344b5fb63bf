// The worker pool gives the sequential scan's output byte for byte, and the walker lists the
// files fast-glob listed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, describe, expect, it } from "vitest";
import { languageForPath } from "../../src/scan/grammar/languages.js";
import { formatScanOutput } from "../../src/scan/output.js";
import { POOL_MIN_FILES } from "../../src/scan/read/pool.js";
import { closePool } from "../../src/scan/read/shared-pool.js";
import { scan, scanPaths } from "../../src/scan/scan.js";
import type { ScanResult, ScanTarget } from "../../src/scan/types.js";
import { expandTargets, expandTargetsFor } from "../../src/scan/walk/walk.js";

const root = mkdtempSync(path.join(os.tmpdir(), "speky-pool-test-"));
afterAll(() => {
  closePool();
  rmSync(root, { recursive: true, force: true });
});

function write(rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const bytes = (r: ScanResult) => formatScanOutput({ ...r, stats: { ...r.stats, ms: 0 } });

/** Many tagged files in several languages, and every kind of warning, spread over folders. */
function plantMany(dir: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const d = `${dir}/pkg${i % 17}/sub${i % 5}`;
    switch (i % 7) {
      case 0:
        write(
          `${d}/m${i}.py`,
          `class C${i}:\n    # speky:pool#PY-${i}\n    def test_m(self):\n        pass\n\n# speky:other#X-${i}\ndef f():\n    pass\n`,
        );
        break;
      case 1:
        write(`${d}/m${i}.ts`, `// speky:pool#TS-${i}\nexport function f${i}(): void {}\nconst s = "speky:pool#STR-${i}";\n`);
        break;
      case 2:
        write(`${d}/m${i}.go`, `package p\n\n// speky:pool#GO-${i}\nfunc TestG${i}(t *testing.T) {}\n`);
        break;
      case 3:
        write(`${d}/m${i}.js`, `function broken( {\n  // speky:pool#ERR-${i}\n  let x = ;\n}\n`);
        break;
      case 4:
        write(`${d}/m${i}.rs`, `/// speky:pool#RS-${i}\npub fn r${i}() {}\n// speky: not a tag\n`);
        break;
      case 5:
        write(`${d}/m${i}.java`, `class J${i} {\n  // speky:pool#JAVA-${i}\n  void m() {}\n}\n`);
        break;
      default:
        write(`${d}/m${i}.py`, `def plain_${i}():\n    return ${i}\n`); // no tag: prefiltered
    }
  }
  write(`${dir}/bin.py`, Buffer.concat([Buffer.from([0, 1]), Buffer.from("# speky:pool#BIN\n")]));
  write(`${dir}/notes.md`, "speky:pool#MD\n");
}

describe("worker pool", () => {
  plantMany("many", 700);

  it("gives the sequential output byte for byte on a tree of many tagged files", async () => {
    const dir = path.join(root, "many");
    const sequential = await scanPaths("pool", ["."], dir, { parallel: false });
    const pooled = await scanPaths("pool", ["."], dir, { parallel: true });
    expect(sequential.references.length).toBeGreaterThan(500);
    expect(sequential.diagnostics.length).toBeGreaterThan(100);
    expect(bytes(pooled)).toBe(bytes(sequential));
    // Once more, with the workers already loaded.
    expect(bytes(await scanPaths("pool", ["."], dir, { parallel: true }))).toBe(bytes(sequential));
  });

  it("gives the same attribution to several targets through the pool", async () => {
    const targets: ScanTarget[] = [
      { project: "pool", root: path.join(root, "many"), patterns: ["**/*.py", "pkg1", "pkg2/**/*.ts"] },
      { project: "other", root, patterns: ["many/pkg1/**"] },
    ];
    const sequential = await scan(targets, { knownProjects: ["pool", "other"], parallel: false });
    const pooled = await scan(targets, { knownProjects: ["pool", "other"], parallel: true });
    expect(bytes(pooled)).toBe(bytes(sequential));
  });
});

describe("reading while walking", () => {
  plantMany("big", POOL_MIN_FILES + 600);
  // The same files again under a link, and one file by a second name: each real file once.
  symlinkSync(path.join(root, "big/pkg3"), path.join(root, "big/zz-link"));
  symlinkSync(path.join(root, "big/pkg4/sub4/m4.rs"), path.join(root, "big/zz-file.rs"));

  // speky:speky-ts#TSCAN-WALK-FEED
  it("gives the sequential output byte for byte once the walk reaches the pool's size", async () => {
    const dir = path.join(root, "big");
    const sequential = await scanPaths("pool", ["."], dir, { parallel: false });
    expect(sequential.stats.files).toBeGreaterThan(POOL_MIN_FILES);
    expect(bytes(await scanPaths("pool", ["."], dir))).toBe(bytes(sequential));
    const targets: ScanTarget[] = [
      { project: "pool", root: dir, patterns: ["."] },
      { project: "other", root, patterns: ["big/pkg1/**", "big/zz-file.rs"] },
    ];
    const options = { knownProjects: ["pool", "other"] };
    expect(bytes(await scan(targets, options))).toBe(bytes(await scan(targets, { ...options, parallel: false })));
  });
});

describe("walker", () => {
  // fast-glob as the reference for what Path.glob reaches: dot entries and node_modules in,
  // .git out, links followed (docs/spec-format.md, "Which files code_sources reach").
  const ignoresFor = (_pattern: string) => ["**/.git/**"];
  async function reference(targets: ScanTarget[]): Promise<string[]> {
    const all = new Set<string>();
    for (const t of targets) {
      for (const pattern of t.patterns) {
        const literal = path.resolve(t.root, pattern);
        let found: string[];
        const s = statSync(literal, { throwIfNoEntry: false });
        const kind = s?.isDirectory() ? "dir" : s?.isFile() ? "file" : null;
        if (kind === "file") found = [literal];
        else if (kind === "dir") {
          found = (
            await fg("**/*", {
              cwd: literal,
              absolute: true,
              dot: true,
              onlyFiles: true,
              suppressErrors: true,
              ignore: ignoresFor(pattern),
            })
          )
            .map((f) => path.resolve(f))
            .filter((f) => languageForPath(f) !== null);
        } else {
          found = (
            await fg(pattern, {
              cwd: t.root,
              absolute: true,
              dot: true,
              onlyFiles: true,
              suppressErrors: true,
              ignore: ignoresFor(pattern),
            })
          ).map((f) => path.resolve(f));
        }
        for (const f of found) all.add(f);
      }
    }
    return [...all].sort();
  }

  const base = path.join(root, "walk");
  for (const rel of [
    "src/a.py",
    "src/b.ts",
    "src/.hidden.py",
    "src/deep/er/c.py",
    "src/deep/er/d.txt",
    ".dot/e.py",
    ".dot/sub/f.py",
    "node_modules/m/g.py",
    "src/node_modules/h.py",
    ".git/i.py",
    "src/.git/j.py",
    "lib/x/k.go",
    "lib/y/l.go",
    "lib/y/z/m.go",
    "README.md",
    "top.py",
    "a b/c d.py",
    "weird[1]/n.py",
    "weird1/o.py",
  ]) {
    write(path.join("walk", rel), "# speky:w#X\n");
  }
  symlinkSync(path.join(base, "lib"), path.join(base, "src", "linked-lib"));
  symlinkSync(path.join(base, "src"), path.join(base, "src", "deep", "loop")); // a cycle
  symlinkSync(path.join(base, "top.py"), path.join(base, "src", "top-link.py"));
  symlinkSync(path.join(base, "nowhere.py"), path.join(base, "src", "broken.py"));

  const patterns = [
    "**/*.py",
    "src/**/*.py",
    "src/*",
    "src",
    "lib",
    "src/deep",
    "*.py",
    "top.py",
    "missing.py",
    "missing/**/*.py",
    "./src/*.ts",
    "src//a.py",
    "lib/*/*.go",
    "lib/**",
    "{src,lib}/**/*.{py,go}",
    ".dot/**/*.py",
    "**/.hidden.py",
    "node_modules/**/*.py",
    "**/node_modules/**",
    "src/node_modules",
    "!src/*.py",
    "a b/*.py",
    "weird[1]/*.py",
    "../walk/src/*.py",
    `${base}/lib/**/*.go`,
  ];

  const reals = (files: string[]) => [...new Set(files.map((f) => realpathSync(f)))].sort();

  // speky:speky-ts#TWALK-GLOBS
  it("reaches, pattern by pattern, the real files fast-glob reaches, each once", async () => {
    for (const pattern of patterns) {
      if (pattern === "src/deep") continue; // reached through the cycle: fast-glob loops, the walker stops
      const target = { project: "w", root: base, patterns: [pattern] };
      const ours = (await expandTargets([target])).jobs.map((j) => j.absPath);
      // Path.glob reads `[1]` as a class (fnmatch): `weird1`, never the folder named `weird[1]` (fast-glob takes both).
      const theirs =
        pattern === "weird[1]/*.py"
          ? [path.join(base, "weird1/o.py")]
          : (await reference([target])).filter((f) => !f.includes(`${path.sep}loop${path.sep}`));
      expect(reals(ours), pattern).toEqual(reals(theirs));
      expect(ours.length, `${pattern}: each real file once`).toBe(reals(ours).length);
    }
  });

  // speky:speky-ts#TWALK-GLOBS
  it("lists the same files in the same order with listings on this thread (CLI) or on the thread pool (server)", async () => {
    for (const pattern of patterns) {
      const target = { project: "w", root: base, patterns: [pattern] };
      const blocking = await expandTargets([target], { blocking: true });
      const pooled = await expandTargets([target], { blocking: false });
      expect(
        blocking.jobs.map((j) => [j.absPath, j.real]),
        pattern,
      ).toEqual(pooled.jobs.map((j) => [j.absPath, j.real]));
      expect(blocking.diagnostics, pattern).toEqual(pooled.diagnostics);
    }
  });

  // speky:speky-ts#TWALK-GLOBS
  it("walks a symbolic link cycle once", async () => {
    const { jobs } = await expandTargets([{ project: "w", root: base, patterns: ["src/deep"] }]);
    const files = jobs.map((j) => path.relative(base, j.absPath));
    expect(files).toContain("src/deep/er/c.py");
    expect(files.filter((f) => f.endsWith("/c.py"))).toEqual(["src/deep/er/c.py"]);
  });

  it("finds named files against the patterns as the walk does (pre-commit mode)", async () => {
    const everything = (
      await expandTargets([{ project: "w", root: base, patterns: ["**/*", ".dot/**", "node_modules/**", ".git/*"] }])
    ).jobs.map((j) => j.absPath);
    const candidates = [...everything, path.join(base, "src/.hidden.py"), path.join(base, ".git/i.py"), path.join(base, "nope.py")];
    for (const pattern of patterns) {
      const targets = [{ project: "w", root: base, patterns: [pattern] }];
      const walked = (await expandTargets(targets)).jobs.map((j) => j.absPath).filter((f) => candidates.includes(f));
      const matched = (await expandTargetsFor(targets, candidates)).jobs.map((j) => j.absPath);
      expect(reals(matched), pattern).toEqual(reals(walked));
    }
  });
});
