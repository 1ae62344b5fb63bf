// Issue 25, work bounded by input: the fast YAML reader's duplicate-key check, and the
// per-file cap on warnings (and errors) of every source: loader fields and CSV columns, the
// references checked across files, dangling tags. Inputs are generated at test time; the
// commands run as children with a hang guard and a measured peak (no timing asserted).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ERRORS_PER_CAUSE, WARNINGS_PER_CAUSE } from "../../src/loader/file-diagnostics.js";
import { CELL_ITEMS, LIST_ITEMS } from "../../src/report/bounds.js";
import { call, connect } from "../support/mcp.js";
import { MAX_RSS_MB, runSpekyMeasured } from "../support/measured.js";
import { runSpeky, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-hostile-work-");
// rm(1) removes a tree deeper than PATH_MAX (it walks by relative names).
afterAll(() => {
  execFileSync("rm", ["-rf", scratch]);
  rmSync(scratch, { recursive: true, force: true });
});

function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(scratch, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

function check(dir: string, ...args: string[]) {
  const r = runSpekyMeasured(["check", "--no-cache", ...args], dir);
  expect(r.signal, `killed (a hang): ${r.stderr}`).toBeNull();
  expect(r.peakMB).toBeLessThan(MAX_RSS_MB);
  return r;
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("the fast YAML reader", () => {
  // speky:speky-ts#TSEC-YAML-KEYS
  it("loads 400,000 keys of one mapping, and a duplicate among 20,000 with one warning", () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `      k${i}: v\n`).join("");
    const head = "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n    properties:\n";
    const dir = tree("yaml-keys", {
      "speky.yaml": "kind: project\nname: p\nfiles: [big.yaml]\n",
      // Quadratic, these 400,000 keys were 80 billion comparisons (80,000 took 15 s).
      "big.yaml": head + keys(400_000),
    });
    const big = check(dir, "speky.yaml");
    expect(big.stdout, big.stderr).toBe("0 errors, 0 warnings in 2 files\n");
    expect(big.status).toBe(0);
    writeFileSync(path.join(dir, "big.yaml"), `${head + keys(20_000)}      k7: again\n`);
    const dup = check(dir, "speky.yaml");
    expect(dup.stdout).toBe("big.yaml:20007:7: warning: duplicate key 'k7' (the last one wins)\n0 errors, 1 warning in 2 files\n");
  });
});

describe("the per-file cap", () => {
  // speky:speky-ts#TSEC-WARNING-CAP
  it("keeps 3 warnings of a million unknown CSV columns, and counts the rest in one", () => {
    const columns = Array.from({ length: 1_000_000 }, (_, i) => `x${i}`).join(",");
    const dir = tree("csv-columns", {
      "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml]\ncomments_csvs: [notes.csv]\n",
      "r.yaml": "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n",
      "notes.csv": `about,from,date,text,external,${columns}\n`,
    });
    const r = check(dir, "speky.yaml");
    expect(lines(r.stdout)).toEqual([
      "notes.csv:1:31: warning: unknown column 'x0' (ignored)",
      "notes.csv:1:34: warning: unknown column 'x1' (ignored)",
      "notes.csv:1:37: warning: unknown column 'x2' (ignored)",
      "notes.csv:1:40: warning: 999,997 more warnings like this in this file: unknown column 'x3' (ignored)",
      `0 errors, ${WARNINGS_PER_CAUSE + 1} warnings in 3 files`,
    ]);
    expect(r.status).toBe(0);
  });

  // speky:speky-ts#TSEC-WARNING-CAP
  it("caps unknown fields, refs naming tests and dangling tags of one file the same way", () => {
    const reqs = Array.from({ length: 5_000 }, (_, i) => `  - id: R${i}\n    long: x\n    color${i}: red\n`).join("");
    const tests = `kind: tests\ncategory: c\ntests:\n  - id: T1\n    long: x\n    ref: [R0]\n    steps: [{action: a}]\n  - id: T2\n    long: x\n    ref: [${Array.from({ length: 5_000 }, () => "T1").join(", ")}]\n    steps: [{action: a}]\n`;
    const tags = Array.from({ length: 20_000 }, (_, i) => `# ${T}p#NOPE${i}\n`).join("");
    const dir = tree("caps", {
      "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml, t.yaml]\ncode_sources: ['src/*.py']\n",
      "r.yaml": `kind: requirements\ncategory: c\nrequirements:\n${reqs}`,
      "t.yaml": tests,
      "src/tags.py": tags,
    });
    const r = check(dir, "speky.yaml");
    const out = lines(r.stdout);
    const of = (file: string) => out.filter((l) => l.startsWith(`${file}:`));
    expect(of("r.yaml")).toHaveLength(WARNINGS_PER_CAUSE + 1);
    expect(of("r.yaml")[WARNINGS_PER_CAUSE]).toMatch(
      /^r\.yaml:\d+:5: warning: 4,997 more warnings like this in this file: requirement 'R3': unknown field 'color3' \(ignored\)$/,
    );
    expect(of("t.yaml")).toHaveLength(WARNINGS_PER_CAUSE + 1);
    expect(of("t.yaml")[WARNINGS_PER_CAUSE]).toMatch(
      /warning: 4,997 more warnings like this in this file: ref 'T1' names a test, not a requirement$/,
    );
    expect(of("src/tags.py")).toHaveLength(ERRORS_PER_CAUSE + 1);
    expect(of("src/tags.py")[ERRORS_PER_CAUSE]).toMatch(
      /^src\/tags\.py:101:3: error: 19,900 more errors like this in this file: tag speky:p#NOPE100 names an unknown ID 'NOPE100'/,
    );
    expect(out.at(-1)).toBe(`${ERRORS_PER_CAUSE + 1} errors, ${2 * (WARNINGS_PER_CAUSE + 1)} warnings in 4 files`);
    expect(r.status).toBe(1);
  });
});

describe("the report", () => {
  // speky:speky-ts#TSEC-REPORT-BOUNDS
  it("writes 100 tests each naming 1,000 requirements with 6 KB titles, every page bounded", () => {
    const title = "T".repeat(6_000);
    const reqs = Array.from({ length: 1_000 }, (_, i) => `  - id: R${i}\n    short: ${title}${i}\n    long: x\n`).join("");
    const refs = Array.from({ length: 1_000 }, (_, i) => `R${i}`).join(", ");
    const tests = Array.from({ length: 100 }, (_, i) => `  - id: T${i}\n    long: x\n    ref: [${refs}]\n    steps: [{action: a}]\n`).join(
      "",
    );
    const dir = tree("report", {
      "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml, t.yaml]\n",
      "r.yaml": `kind: requirements\ncategory: c\nrequirements:\n${reqs}`,
      "t.yaml": `kind: tests\ncategory: c\ntests:\n${tests}`,
    });
    // It ended in `RangeError: Invalid string length` after 709 MB.
    const r = runSpekyMeasured(["report", "--no-cache", "speky.yaml", "--out", "site"], dir);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.peakMB).toBeLessThan(MAX_RSS_MB);
    const site = path.join(dir, "site");
    const pages = readdirSync(site, { recursive: true, withFileTypes: true }).filter((e) => e.name.endsWith(".html"));
    for (const p of pages) expect(statSync(path.join(p.parentPath, p.name)).size, p.name).toBeLessThan(32 * 1024 * 1024);
    // Each test's view lists LIST_ITEMS requirements, then the count of the others; each cell CELL_ITEMS.
    const testPage = readFileSync(path.join(site, "tests/0001.html"), "utf8");
    expect(testPage).toContain(`<p class="more-items">and ${(1_000 - LIST_ITEMS).toLocaleString("en-US")} more</p>`);
    expect(testPage).not.toContain(title);
    const testsList = readFileSync(path.join(site, "tests.html"), "utf8");
    expect(testsList.split(`<span class="more-items">and ${1_000 - CELL_ITEMS} more</span>`)).toHaveLength(101);
    // A requirement's own view has its whole title.
    expect(readFileSync(path.join(site, "requirements/0001.html"), "utf8")).toContain(`${title}0`);
    expect(pages.length).toBeGreaterThan(6);
  });
});

describe("paths longer than PATH_MAX", () => {
  // speky:speky-ts#TSEC-PATH-TOO-LONG
  it("are a diagnostic of their entry, and check, scan and the server go on", async () => {
    const dir = tree("deep", {
      "speky.yaml": "kind: project\nname: p\nfiles: [r.yaml]\ncode_sources: ['**/*.py']\n",
      "r.yaml": "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n",
      "top.py": `# ${T}p#R1\n`,
    });
    // Made by relative steps in a child (a path past PATH_MAX cannot be named whole): 20 folders
    // of 200 characters hold a file whose path passes 4,096, and 5 more a folder that does.
    const script = `
      const fs = require("fs");
      process.chdir(${JSON.stringify(dir)});
      for (let i = 0; i < 25; i++) {
        fs.mkdirSync("d".repeat(200));
        process.chdir("d".repeat(200));
        if (i === 19) {
          fs.writeFileSync("x".repeat(150) + ".py", "# ${T}p#R1\\n");
          fs.writeFileSync("ok.py", "# ${T}p#R1\\n");
        }
      }
      fs.writeFileSync("deepest.py", "# ${T}p#R1\\n");`;
    execFileSync(process.execPath, ["-e", script]);
    const shorten = (text: string) => text.replace(/d{200}/g, "D").replace(/x{150}/g, "X");
    // The 21st folder, 4,220 characters from the root, quoted short.
    const UNLISTED = `'**/*.py': cannot list the folder '${"d".repeat(100)}…' (4,220 characters) (ENAMETOOLONG: its path is too long); nothing under it is reached`;
    // The cached runs share a cache: the second answers from the walk the first remembered (or not).
    const cache = path.join(scratch, "deep-cache");
    for (const args of [["check", "--no-cache"], ["check"], ["check"], ["scan", "--no-cache"]]) {
      const r = runSpeky([...args, "speky.yaml"], dir, { SPEKY_CACHE_DIR: cache });
      const out = shorten(r.stdout + r.stderr);
      expect(out).not.toMatch(/internal error/);
      expect(r.status, out).toBe(0);
      if (args[0] === "check") {
        expect(out).toBe(
          `${"D/".repeat(20)}X.py: warning: cannot read file: ENAMETOOLONG\n` +
            `speky.yaml:4:16: warning: ${UNLISTED}\n` +
            "0 errors, 2 warnings in 5 files\n",
        );
      } else {
        expect(JSON.parse(r.stdout).references.map((x: { file: string }) => shorten(x.file))).toEqual([
          `${"D/".repeat(20)}ok.py`,
          "top.py",
        ]);
      }
    }
    const session = await connect(["speky.yaml"], { cwd: dir });
    try {
      const problems = (await call(session.client, "list_problems")).structured as { problems: { message: string }[] };
      expect(problems.problems.map((p) => shorten(p.message))).toEqual(["cannot read file: ENAMETOOLONG", UNLISTED]);
    } finally {
      await session.close();
    }
  });
});
