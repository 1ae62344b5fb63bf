// The cache's build key where build-key.json does not fit the files: an installed package (npm
// dates every file when it unpacks it) hashes the key's files on its first scan, then takes the
// key from its signed cache; an edit of a covered file makes it hash again and drop that cache.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../support/process.js";
import { untilStampsTrusted } from "../support/racy-window.js";

const base = tempDir("speky-cache-key-");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The package's shipped folders copied with fresh mtimes, as an install leaves them. */
function installedCopy(): string {
  const pkg = path.join(base, "pkg");
  for (const part of ["bin", "grammars", "package.json"]) cpSync(path.join(REPO, part), path.join(pkg, part), { recursive: true });
  cpSync(path.join(REPO, "dist"), path.join(pkg, "dist"), {
    recursive: true,
    filter: (from) => !from.endsWith(".map") && !from.endsWith(".d.ts"),
  });
  symlinkSync(path.join(REPO, "node_modules"), path.join(pkg, "node_modules"));
  return pkg;
}

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

describe("the build key of an installed copy", () => {
  // speky:speky-ts#TCACHE-KEY-INSTALLED
  it("is hashed on the first scan only, and again after a grammar changes", async () => {
    const pkg = installedCopy();
    const tree = path.join(base, "tree");
    write(path.join(tree, "speky.yaml"), "kind: project\nname: p\nfiles: [r.yaml]\ncode_sources: ['src/**/*.py']\n");
    write(path.join(tree, "r.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n");
    write(path.join(tree, "src/a.py"), "# speky:p#R1\ndef a():\n    pass\n");
    for (let i = 0; i < 20; i++) write(path.join(tree, `src/m${i}.py`), `def m${i}():\n    return ${i}\n`);
    // Every stamp older than the cache's racy window: the second scan may trust them.
    await untilStampsTrusted(["src/a.py", "src/m19.py"].map((f) => path.join(tree, f)));
    const cache = path.join(base, "cache");
    const scan = () => {
      const r = spawnSync(process.execPath, [path.join(pkg, "bin/speky.js"), "scan", "speky.yaml"], {
        cwd: tree,
        encoding: "utf8",
        env: { ...process.env, SPEKY_CACHE_DIR: cache, SPEKY_SCAN_TRACE: "1" },
      });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { references: { id: string; file: string; line: number }[] };
      return { refs: out.references.map((x) => `${x.file}:${x.line}:${x.id}`), trace: r.stderr };
    };
    const first = scan();
    expect(first.refs).toEqual(["src/a.py:2:R1"]);
    expect(first.trace).toContain("cache key hashed");
    const second = scan();
    expect(second.refs).toEqual(first.refs);
    expect(second.trace).not.toContain("cache key hashed");
    expect(second.trace).toContain("replayed: 21 files unchanged");
    appendFileSync(path.join(pkg, "grammars/python.scm"), "\n; an edit\n");
    const third = scan();
    expect(third.refs).toEqual(first.refs);
    expect(third.trace).toContain("cache key hashed");
    expect(third.trace).not.toContain("replayed");
  });
});
