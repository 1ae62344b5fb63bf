// Files that fight back: every one ends in a correct reference or a diagnostic, and the scan
// (or the load) goes on to the files after it. Timing bounds here are generous on purpose
// (CI machines are slow and shared): they assert that a guard exists, not how fast it is.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_FILE_BYTES } from "../../src/loader/files.js";
import { loadSpecs } from "../../src/loader/load.js";
import { MAX_PARSE_BYTES, tooLargeMessage } from "../../src/scan/engine/file.js";
import { MESSAGES } from "../../src/scan/engine/index.js";
import { scan } from "../../src/scan/scan.js";
import type { CodeReference, ScanResult } from "../../src/scan/types.js";
import { REPO, SPEKY_BIN, tempDir } from "../support/process.js";

// The walk, wrapped: a test may act between the walk and the reads (a file deleted mid-scan).
const hooks = vi.hoisted(() => ({ afterWalk: null as null | (() => void) }));
vi.mock("../../src/scan/walk/walk.js", async (importOriginal) => {
  const walk = await importOriginal<typeof import("../../src/scan/walk/walk.js")>();
  return {
    ...walk,
    expandTargets: async (...args: Parameters<typeof walk.expandTargets>) => {
      const jobs = await walk.expandTargets(...args);
      hooks.afterWalk?.();
      return jobs;
    },
  };
});

const T = "speky" + ":"; // the marker, kept out of this file's own comments
const scratch = tempDir("speky-hardening-files-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(root: string, rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const target = (root: string) => ({ project: "fx", root, patterns: ["src/**/*.py", "src/**/*.js"] });
const refsOf = (result: ScanResult, file: string) => result.references.filter((r) => r.file === file);
const warningsOf = (result: ScanResult, file: string) => result.diagnostics.filter((d) => d.file === file);
const brief = (r: CodeReference) => ({
  id: r.id,
  line: r.line,
  column: r.column,
  tag_line: r.tag_line,
  tag_column: r.tag_column,
  symbol: r.symbol,
});

describe("source files that fight back", () => {
  const root = path.join(scratch, "sources");
  let result: ScanResult;
  let minBytes = 0;

  beforeAll(async () => {
    write(root, "src/a_good.py", `# ${T}fx#GOOD\ndef good():\n    pass\n`);
    write(root, "src/binary.py", Buffer.concat([Buffer.from(`# ${T}fx#BIN\n`), Buffer.from([0, 1, 2, 0, 255])]));
    write(root, "src/latin1.py", Buffer.concat([Buffer.from(`# caf`), Buffer.from([0xe9]), Buffer.from(` ${T}fx#LATIN\ndef f(): pass\n`)]));
    write(root, "src/bom.py", `\ufeff# ${T}fx#BOM\ndef with_bom():\n    pass\n`);
    write(root, "src/crlf.py", `x = 1\r\n\r\n# ${T}fx#CRLF\r\ndef crlf():\r\n    pass\r\n# ${T}fx#CRLF-FREE\r\n`);
    write(root, "src/cr.py", `x = 1\r\r# ${T}fx#CR\rdef cr():\r    pass\r# ${T}fx#CR-FREE\r`);
    // 10 MB of minified code on one line, a tag at each end.
    const chunk = 'var a=function(b){return b+1},c={d:[1,2,3],e:"s"};';
    minBytes = statSync(
      write(root, "src/min.js", `/* ${T}fx#MIN */${chunk.repeat(Math.ceil(10e6 / chunk.length))}function g(){/* ${T}fx#MIN-END */}`),
    ).size;
    // 100,000 tags: a run of tagged comments above one function.
    write(root, "src/many.py", `${Array.from({ length: 100_000 }, (_, i) => `# ${T}fx#T${i}`).join("\n")}\ndef many():\n    pass\n`);
    // A tag inside 10,000 levels of brackets.
    write(root, "src/deep.js", `const x = ${"[".repeat(10_000)}/* ${T}fx#DEEP */${"]".repeat(10_000)};\n`);
    // Not regular files, links that lead nowhere or in circles, a directory named like a source.
    execFileSync("mkfifo", [path.join(root, "src/fifo.py")]);
    symlinkSync("loop_b.py", path.join(root, "src/loop_a.py"));
    symlinkSync("loop_a.py", path.join(root, "src/loop_b.py"));
    symlinkSync("nowhere.py", path.join(root, "src/dangling.py"));
    symlinkSync(".", path.join(root, "src/self"));
    symlinkSync("..", path.join(root, "src/up"));
    write(root, "src/dir.py/inner.py", `# ${T}fx#INNER\n`);
    write(root, "src/z_last.py", `# ${T}fx#LAST\n`);
    result = await scan([target(root)]);
  });

  it("scans the good files around the bad ones", () => {
    expect(refsOf(result, "src/a_good.py").map(brief)).toEqual([
      { id: "GOOD", line: 2, column: 5, tag_line: 1, tag_column: 3, symbol: "good" },
    ]);
    expect(refsOf(result, "src/z_last.py").map((r) => r.id)).toEqual(["LAST"]);
    expect(refsOf(result, "src/dir.py/inner.py").map((r) => r.id)).toEqual(["INNER"]);
    // The whole tree, 12 MB of it, with no file read past its bound: the big ones are refused
    // by size (warnings below), so the work is bounded by the count of files, not their bytes.
    expect(result.stats.files).toBeGreaterThan(10);
  });

  it("reports a binary file's tag with a warning, not a reference", () => {
    expect(refsOf(result, "src/binary.py")).toEqual([]);
    expect(warningsOf(result, "src/binary.py")).toEqual([
      { file: "src/binary.py", line: 0, column: 0, severity: "warning", message: MESSAGES.notText },
    ]);
  });

  // speky:speky-ts#TNAV-LATIN1
  it("finds the tags of a file with bytes that are not UTF-8 (a Latin-1 comment), as speky does", () => {
    // The invalid byte is one replacement character: the tag is at column 8.
    expect(refsOf(result, "src/latin1.py").map(brief)).toEqual([
      { id: "LATIN", line: 2, column: 5, tag_line: 1, tag_column: 8, symbol: "f" },
    ]);
    expect(warningsOf(result, "src/latin1.py")).toEqual([]);
  });

  it("reads a UTF-8 BOM file with columns as an editor shows them", () => {
    expect(refsOf(result, "src/bom.py").map(brief)).toEqual([
      { id: "BOM", line: 2, column: 5, tag_line: 1, tag_column: 3, symbol: "with_bom" },
    ]);
  });

  it("counts lines right with CRLF and with lone CR line ends", () => {
    const expected = (suffix: string, fn: string) => [
      { id: suffix, line: 4, column: 5, tag_line: 3, tag_column: 3, symbol: fn },
      { id: `${suffix}-FREE`, line: 6, column: 3, tag_line: 6, tag_column: 3, symbol: null },
    ];
    expect(refsOf(result, "src/crlf.py").map(brief)).toEqual(expected("CRLF", "crlf"));
    expect(refsOf(result, "src/cr.py").map(brief)).toEqual(expected("CR", "cr"));
    expect(warningsOf(result, "src/crlf.py")).toEqual([]);
    expect(warningsOf(result, "src/cr.py")).toEqual([]);
  });

  it("reports the tags of a 10 MB minified file without parsing it", () => {
    expect(refsOf(result, "src/min.js")).toEqual([]);
    const warnings = warningsOf(result, "src/min.js");
    expect(warnings.map((d) => [d.line, d.message])).toEqual([
      [1, tooLargeMessage(minBytes)],
      [1, tooLargeMessage(minBytes)],
    ]);
    expect(warnings[0].column).toBe(4);
    expect(MAX_PARSE_BYTES).toBeLessThan(10_000_000);
  });

  it("finds all 100,000 tags of one file, each on its own line, all above one function", () => {
    const refs = refsOf(result, "src/many.py");
    expect(refs).toHaveLength(100_000);
    expect(new Set(refs.map((r) => r.symbol))).toEqual(new Set(["many"]));
    expect(refs.map((r) => r.tag_line).sort((a, b) => a - b)).toEqual(Array.from({ length: 100_000 }, (_, i) => i + 1));
    expect(refs.every((r) => r.line === 100_001)).toBe(true);
  });

  it("finds a tag nested 10,000 levels deep", () => {
    expect(refsOf(result, "src/deep.js").map(brief)).toEqual([
      { id: "DEEP", line: 1, column: 10_014, tag_line: 1, tag_column: 10_014, symbol: null },
    ]);
  });

  it("skips a FIFO named like a source without blocking on it", () => {
    expect(refsOf(result, "src/fifo.py")).toEqual([]);
    expect(warningsOf(result, "src/fifo.py")).toEqual([]);
  });

  it("reports a symbolic link loop and walks past links to its own directories", () => {
    for (const file of ["src/loop_a.py", "src/loop_b.py"]) {
      expect(warningsOf(result, file)).toEqual([{ file, line: 0, column: 0, severity: "warning", message: "cannot read file: ELOOP" }]);
    }
    // `self` and `up` lead back into the tree: each file is listed once.
    expect(result.references.filter((r) => r.id === "GOOD")).toHaveLength(1);
    expect(result.diagnostics.some((d) => d.file.includes("self/") || d.file.includes("up/"))).toBe(false);
  });

  it("reports a file deleted (or replaced by a directory) between the walk and its read", async () => {
    const dir = path.join(scratch, "midscan");
    write(dir, "src/a.py", `# ${T}fx#A\n`);
    write(dir, "src/b_gone.py", `# ${T}fx#GONE\n`);
    write(dir, "src/c_dir.py", `# ${T}fx#NOW-A-DIR\n`);
    write(dir, "src/d.py", `# ${T}fx#D\n`);
    hooks.afterWalk = () => {
      unlinkSync(path.join(dir, "src/b_gone.py"));
      unlinkSync(path.join(dir, "src/c_dir.py"));
      mkdirSync(path.join(dir, "src/c_dir.py"));
    };
    let midscan: ScanResult;
    try {
      midscan = await scan([{ project: "fx", root: dir, patterns: ["src/*.py"] }]);
    } finally {
      hooks.afterWalk = null;
    }
    expect(midscan.references.map((r) => r.id)).toEqual(["A", "D"]);
    expect(midscan.diagnostics).toEqual([
      { file: "src/b_gone.py", line: 0, column: 0, severity: "warning", message: "cannot read file: ENOENT" },
      { file: "src/c_dir.py", line: 0, column: 0, severity: "warning", message: "cannot read file: EISDIR" },
    ]);
  });

  it("reports a file it may not read (permission denied) and scans on", async (ctx) => {
    const dir = path.join(scratch, "denied");
    write(dir, "src/a.py", `# ${T}fx#A\n`);
    write(dir, "src/secret.py", `# ${T}fx#SECRET\n`);
    write(dir, "src/z.py", `# ${T}fx#Z\n`);
    chmodSync(path.join(dir, "src/secret.py"), 0o000);
    let output: { references: { id: string }[]; diagnostics: unknown[] };
    if (process.getuid?.() === 0) {
      // root reads anything: run the real CLI as an unprivileged user instead.
      const NOBODY = 65534;
      for (const d of [scratch, dir, path.join(dir, "src")]) chmodSync(d, 0o755);
      for (const f of ["a.py", "z.py"]) chmodSync(path.join(dir, "src", f), 0o644);
      const probe = spawnSync(process.execPath, [SPEKY_BIN, "--version"], { cwd: REPO, uid: NOBODY, gid: NOBODY, encoding: "utf8" });
      if (probe.status !== 0) ctx.skip(`running as root, and user ${NOBODY} cannot run the CLI here: ${probe.stderr}`);
      const run = spawnSync(process.execPath, [SPEKY_BIN, "scan", "--no-cache", "--project", "fx", "src"], {
        cwd: dir,
        uid: NOBODY,
        gid: NOBODY,
        encoding: "utf8",
        env: { ...process.env, HOME: dir, XDG_CACHE_HOME: dir },
      });
      expect(run.status, run.stderr).toBe(0);
      output = JSON.parse(run.stdout);
    } else {
      output = await (await import("../../src/scan/scan.js")).scanPaths("fx", ["src"], dir);
    }
    expect(output.references.map((r) => r.id)).toEqual(["A", "Z"]);
    expect(output.diagnostics).toEqual([
      { file: "src/secret.py", line: 0, column: 0, severity: "warning", message: "cannot read file: EACCES" },
    ]);
  });
});

describe("specification files that fight back", () => {
  const root = path.join(scratch, "specs");
  const requirement = (id: string) => `  - id: ${id}\n    long: x\n`;

  it("refuses a YAML alias bomb at the expansion cap (10,000), not after expanding it", async () => {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    }
    write(root, "bomb.yaml", `kind: requirements\ncategory: x\n${levels.join("\n")}\nrequirements:\n${requirement("R1")}`);
    // 9^12 nodes if expanded: the refusal comes from the count of expansions, whatever the time.
    const result = await loadSpecs(["bomb.yaml"], { cwd: root });
    expect(result.specs).toBeNull();
    expect(result.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("alias bomb")]);
  });

  it("refuses a 50 MB spec by its size, without parsing it", async () => {
    // Real content, not a sparse file: 50 MB of requirements.
    const body = requirement("R-XXXXXXXX").repeat(Math.ceil((50 * 1024 * 1024) / requirement("R-XXXXXXXX").length));
    write(root, "huge.yaml", `kind: requirements\ncategory: x\nrequirements:\n${body}`);
    const result = await loadSpecs(["huge.yaml"], { cwd: root });
    expect(result.specs).toBeNull();
    expect(result.diagnostics).toEqual([
      {
        file: "huge.yaml",
        line: 0,
        column: 0,
        severity: "error",
        message: expect.stringMatching(/^file is too large \(50\.\d MB; the limit is 20 MB\)$/),
      },
    ]);
    expect(MAX_FILE_BYTES).toBe(20 * 1024 * 1024);
  });

  it("reports nesting 10,000 levels deep in YAML and TOML as an error", async () => {
    write(root, "deep.yaml", `kind: requirements\ncategory: x\nx: ${"[".repeat(10_000)}${"]".repeat(10_000)}\nrequirements: []\n`);
    write(root, "deep.toml", `kind = "requirements"\ncategory = "x"\nx = ${"[".repeat(10_000)}${"]".repeat(10_000)}\nrequirements = []\n`);
    for (const file of ["deep.yaml", "deep.toml"]) {
      const result = await loadSpecs([file], { cwd: root });
      expect(result.specs, file).toBeNull();
      expect(
        result.diagnostics.filter((d) => d.severity === "error"),
        file,
      ).toHaveLength(1);
      expect(result.diagnostics[0]).toMatchObject({ file, line: 3, severity: "error" });
    }
  });

  it("reads LF, CRLF and lone CR line ends, and a BOM, with the same lines", async () => {
    const lf = `kind: requirements\ncategory: x\nrequirements:\n${requirement("R1")}${requirement("R2")}`;
    const files = {
      "lf.yaml": lf,
      "crlf.yaml": lf.replace(/\n/g, "\r\n"),
      "cr.yaml": lf.replace(/\n/g, "\r"),
      "bom.yaml": `\ufeff${lf}`,
    };
    for (const [name, text] of Object.entries(files)) {
      write(root, `ends/${name}`, text);
      const result = await loadSpecs([`ends/${name}`], { cwd: root });
      expect(result.diagnostics, name).toEqual([]);
      expect(
        result.specs!.requirements.map((r) => [r.id, r.long, r.loc.line, r.loc.column]),
        name,
      ).toEqual([
        ["R1", "x", 4, 5],
        ["R2", "x", 6, 5],
      ]);
    }
  });

  it("reports aliases that resolve to nothing usable instead of throwing", async () => {
    const cases = {
      "merge-scalar.yaml": "kind: requirements\na: &a 1\n<<: *a\ncategory: x\nrequirements: []\n",
      "merge-undefined.yaml": "kind: requirements\n<<: *nowhere\ncategory: x\nrequirements: []\n",
      "alias-undefined.yaml": "kind: requirements\ncategory: *nowhere\nrequirements: []\n",
    };
    for (const [name, text] of Object.entries(cases)) {
      write(root, `aliases/${name}`, text);
      const result = await loadSpecs([`aliases/${name}`], { cwd: root });
      expect(result.specs, name).toBeNull();
      expect(
        result.diagnostics.map((d) => [d.file, d.severity]),
        name,
      ).toEqual([[`aliases/${name}`, "error"]]);
      expect(result.diagnostics[0].message, name).toMatch(/^YAML: /);
    }
  });

  it("keeps every message on one line, whatever text of the file it quotes", async () => {
    write(
      root,
      "oneline/reqs.yaml",
      'kind: requirements\ncategory: x\nrequirements:\n  - id: "A\\nB\\u2028C\\rD"\n    long: x\n    ref: ["X\\nY"]\n',
    );
    write(root, "oneline/c.csv", '"da\nte",from,text\n1,2,3\n');
    const result = await loadSpecs(["oneline/reqs.yaml"], { cwd: root, csvs: ["oneline/c.csv"] });
    expect(result.diagnostics.length).toBeGreaterThanOrEqual(2);
    for (const d of result.diagnostics) expect(d.message).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(result.diagnostics.map((d) => d.message).join(" ")).toContain("X\\nY");
  });

  it("answers a FIFO, a directory and a link loop given as spec files without blocking", async () => {
    execFileSync("mkfifo", [path.join(root, "fifo.yaml")]);
    mkdirSync(path.join(root, "dir.yaml"), { recursive: true });
    symlinkSync("loop2.yaml", path.join(root, "loop1.yaml"));
    symlinkSync("loop1.yaml", path.join(root, "loop2.yaml"));
    write(root, "ok.yaml", `kind: requirements\ncategory: x\nrequirements:\n${requirement("OK")}`);
    const result = await loadSpecs(["fifo.yaml", "dir.yaml", "loop1.yaml", "ok.yaml"], { cwd: root });
    expect(result.diagnostics.map((d) => [d.file, d.message])).toEqual([
      ["dir.yaml", "this is a directory, not a specification file"],
      ["fifo.yaml", "this is not a regular file"],
      ["loop1.yaml", "cannot read the file (ELOOP)"],
    ]);
  });

  it("loads a manifest whose globs end in '/' or hold '//' without throwing", async () => {
    write(root, "globs/speky.yaml", "kind: project\nname: g\nfiles: [specs/, specs//*.yaml]\n");
    write(root, "globs/specs/r.yaml", `kind: requirements\ncategory: x\nrequirements:\n${requirement("G1")}`);
    const result = await loadSpecs(["globs/speky.yaml"], { cwd: root });
    expect(result.specs?.requirements.map((r) => r.id)).toEqual(["G1"]);
    expect(result.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
  });
});
