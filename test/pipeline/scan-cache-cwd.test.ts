// A warm manifest scan stats its cached files by their keys when it runs in the manifest's
// folder (the cache's base), else by their absolute paths: the same changes are told either way.
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSpeky } from "../support/process.js";
import { untilStampsTrusted } from "../support/racy-window.js";

const T = "speky:";
const base = mkdtempSync(path.join(os.tmpdir(), "speky-cache-cwd-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

describe("a warm scan's stamps, from the manifest's folder and from elsewhere", () => {
  // speky:speky-ts#TSCAN-WARM-MANY
  it("tells a same-size rewrite with the old mtime and an added file either way", async () => {
    const ways = [
      { name: "in-folder", cwd: (tree: string) => tree, manifest: () => "speky.yaml" },
      { name: "elsewhere", cwd: () => base, manifest: (tree: string) => path.join(tree, "speky.yaml") },
    ];
    for (const way of ways) {
      const tree = path.join(base, way.name, "tree");
      const cache = path.join(base, way.name, "cache");
      write(path.join(tree, "speky.yaml"), "kind: project\nname: p\nfiles: [r.yaml]\ncode_sources: ['src/**/*.py']\n");
      write(
        path.join(tree, "r.yaml"),
        "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n  - id: R2\n    long: y\n",
      );
      write(path.join(tree, "src/a.py"), `# ${T}p#R1\ndef a():\n    pass\n`);
      const quiet = path.join(tree, "src/sub/b.py");
      const later = `# ${T}p#R2\ndef b():\n    pass\n`;
      write(quiet, `${"#".repeat(later.length - 1)}\n`);
      for (let i = 0; i < 50; i++) write(path.join(tree, `src/many/m${i}.py`), `def m${i}():\n    return ${i}\n`);
      await untilStampsTrusted([quiet, path.join(tree, "src/a.py"), path.join(tree, "src/many/m49.py")]);
      let trace = "";
      const scan = (...extra: string[]) => {
        const r = runSpeky(["scan", ...extra, way.manifest(tree)], way.cwd(tree), { SPEKY_CACHE_DIR: cache, SPEKY_SCAN_TRACE: "1" });
        expect(r.status, r.stderr).toBe(0);
        trace = r.stderr;
        return (JSON.parse(r.stdout) as { references: { id: string; file: string }[] }).references.map((ref) => `${ref.file}:${ref.id}`);
      };
      expect(scan(), way.name).toEqual(["src/a.py:R1"]);
      expect(scan(), way.name).toEqual(["src/a.py:R1"]);
      // Every file's stamp and every folder's found unchanged.
      expect(trace, way.name).toContain("replayed: 52 files unchanged");
      // Same size, old mtime: only the ctime tells.
      const before = statSync(quiet);
      writeFileSync(quiet, later);
      utimesSync(quiet, before.atime, before.mtime);
      expect(scan(), way.name).toEqual(["src/a.py:R1", "src/sub/b.py:R2"]);
      write(path.join(tree, "src/sub/deeper/c.py"), `# ${T}p#R1\ndef c():\n    pass\n`);
      const grown = scan();
      expect(grown, way.name).toEqual(["src/a.py:R1", "src/sub/b.py:R2", "src/sub/deeper/c.py:R1"]);
      expect(grown, way.name).toEqual(scan("--no-cache"));
    }
  });
});
