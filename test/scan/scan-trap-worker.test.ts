// A grammar that traps leaves its thread's parser runtime broken (its stack pointer moved, as a
// real trap may leave it): the scan hands the rest of its parses to fresh pool workers, so
// every other file still gets its symbols. Through the built CLI of a private copy of the
// package whose Python grammar is made to trap (test/support/trap-grammar.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/process.js";
import { packageWithTrappingGrammar } from "../support/trap-grammar.js";

const T = "speky" + ":"; // the marker, kept out of this file's own comments
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Doc {
  references: { file: string; id: string; symbol: string | null; language: string }[];
  diagnostics: { file: string; message: string }[];
}

describe("a grammar that traps", () => {
  // speky:speky-ts#TSCAN-TRAP-WORKER
  it("costs only its own files' symbols: the scan goes on in fresh workers", () => {
    const bin = packageWithTrappingGrammar("python", "tree_sitter_python_external_scanner_scan");
    dirs.push(path.dirname(path.dirname(bin)));
    const tree = tempDir("speky-trap-tree-");
    dirs.push(tree);
    mkdirSync(path.join(tree, "src"));
    // Python and JavaScript files in turn: every Python parse traps, every JavaScript one after it must not suffer.
    const python: string[] = [];
    const javascript: string[] = [];
    for (let i = 0; i < 36; i++) {
      const name = `m${String(i).padStart(2, "0")}`;
      if (i % 6 === 0) {
        writeFileSync(path.join(tree, "src", `${name}.py`), `# ${T}p#PY-${i}\ndef f${i}():\n    pass\n`);
        python.push(`src/${name}.py`);
      } else {
        writeFileSync(path.join(tree, "src", `${name}.js`), `// ${T}p#JS-${i}\nfunction g${i}() {}\n`);
        javascript.push(`src/${name}.js`);
      }
    }
    const r = spawnSync(process.execPath, [bin, "scan", "--no-cache", "--project", "p", "src"], {
      cwd: tree,
      encoding: "utf8",
      env: { ...process.env, SPEKY_SCAN_WORKERS: "2" },
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    const js = doc.references.filter((ref) => ref.language === "javascript");
    expect(js.map((ref) => [ref.file, ref.symbol])).toEqual(javascript.map((file) => [file, `g${Number(file.slice(5, 7))}`]));
    // Each trapped file is one warning, its tag kept where it is written; nothing else is reported.
    expect(doc.diagnostics.map((d) => [d.file, d.message])).toEqual(
      python.map((file) => [file, "the python grammar failed: unreachable: tag reported without a symbol"]),
    );
    expect(doc.references.filter((ref) => ref.language === "python").map((ref) => [ref.file, ref.symbol])).toEqual(
      python.map((f) => [f, null]),
    );
  });
});
