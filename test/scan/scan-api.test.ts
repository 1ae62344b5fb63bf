// The scanner's behaviour around the engine: which files, which project, which path, and
// that no tag-like text is lost silently.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanFileBuffer } from "../../src/scan/engine/file.js";
import { MESSAGES, scanText } from "../../src/scan/engine/index.js";
import { holdsMarker } from "../../src/scan/read/worker-task.js";
import { scan, scanPaths } from "../../src/scan/scan.js";

const root = mkdtempSync(path.join(os.tmpdir(), "speky-scan-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const SHARED = [
  "# speky:alpha#A1",
  "def f():",
  '    s = "speky:beta#B2 speky:gamma#G2"',
  "",
  "# speky:BETA#B1 speky:gamma#G1",
  "print(1)",
  "",
].join("\n");

describe("scan", () => {
  const sharedFile = write("alpha/src/shared.py", SHARED);
  const alpha = {
    project: "Alpha",
    root: path.join(root, "alpha"),
    patterns: ["src/**/*.py"],
    source_links: { url: "https://example.invalid/org/repo", branch: "main", gitRoot: root },
  };
  const beta = { project: "beta", root, patterns: ["alpha/src/*.py"] };

  it("scans a file matched by several targets once, attributing each tag to its project's target", async () => {
    const result = await scan([alpha, beta]);
    expect(result.stats).toMatchObject({ files: 1, files_with_tags: 1, tags: 3 });
    // The file's definition spans ride along on its references, for find_code_references.
    const outline = { lines: 6, spans: [[2, 3]] };
    expect(result.references.map((r) => r.outline)).toEqual([outline, outline]);
    expect(result.references.map(({ outline: _, ...r }) => r)).toEqual([
      {
        project: "beta",
        id: "B1",
        file: "alpha/src/shared.py",
        line: 5,
        column: 3,
        tag_line: 5,
        tag_column: 3,
        symbol: null,
        kind: null,
        is_test: false,
        language: "python",
      },
      {
        project: "Alpha",
        id: "A1",
        file: "src/shared.py",
        line: 2,
        column: 5,
        start_line: 2,
        end_line: 3,
        tag_line: 1,
        tag_column: 3,
        symbol: "f",
        kind: "function",
        is_test: false,
        language: "python",
        url: "https://example.invalid/org/repo/blob/main/alpha/src/shared.py#L2",
      },
    ]);
    expect(result.diagnostics).toEqual([
      { file: "alpha/src/shared.py", line: 3, column: 10, severity: "warning", message: MESSAGES.inString },
    ]);
  });

  it("reports other projects when told they are known", async () => {
    const result = await scan([alpha], { knownProjects: ["alpha", "gamma"] });
    expect(result.references.map((r) => [r.project, r.id, r.file])).toEqual([
      ["Alpha", "A1", "src/shared.py"],
      ["gamma", "G1", "src/shared.py"],
    ]);
    expect(result.diagnostics.map((d) => [d.line, d.column])).toEqual([[3, 24]]);
  });

  it("restricts the scan to onlyFiles", async () => {
    const other = write("alpha/src/other.py", "# speky:alpha#OTHER\n");
    expect((await scan([alpha], { onlyFiles: [other] })).references.map((r) => r.id)).toEqual(["OTHER"]);
    expect((await scan([alpha], { onlyFiles: [sharedFile] })).references.map((r) => r.id)).toEqual(["A1"]);
    rmSync(other);
  });

  it("gives the same output on every run", async () => {
    const strip = (r: Awaited<ReturnType<typeof scan>>) => JSON.stringify({ ...r, stats: { ...r.stats, ms: 0 } });
    expect(strip(await scan([alpha, beta]))).toBe(strip(await scan([beta, alpha])));
  });
});

describe("file selection", () => {
  const base = path.join(root, "walk");
  for (const rel of [
    "src/a.py",
    "src/.hidden.py",
    ".dot/b.py",
    "node_modules/m/c.py",
    "src/node_modules/d.py",
    ".git/e.py",
    "src/README.md",
  ]) {
    write(path.join("walk", rel), `# speky:w#${path.basename(rel).replace(/\W/g, "_")}\n`);
  }
  const ids = async (patterns: string[]) => (await scan([{ project: "w", root: base, patterns }])).references.map((r) => r.file);

  // speky:speky-ts#TWALK-GLOBS
  it("reaches dot files and node_modules as Path.glob does, never .git", async () => {
    expect(await ids(["**/*.py"])).toEqual([".dot/b.py", "node_modules/m/c.py", "src/.hidden.py", "src/a.py", "src/node_modules/d.py"]);
    expect(await ids(["node_modules/**/*.py"])).toEqual(["node_modules/m/c.py"]);
    expect(await ids([".dot/*.py"])).toEqual([".dot/b.py"]);
  });

  it("reads a pattern naming a directory as its source files, like speky", async () => {
    expect(await ids(["src"])).toEqual(["src/.hidden.py", "src/a.py", "src/node_modules/d.py"]);
  });

  it("reports a file that is not text once, if it names a known project", async () => {
    write("walk/bin/blob.py", Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from("# speky:w#B1 speky:w#B2 speky:zz#Z\n")]));
    write("walk/bin/other.py", Buffer.concat([Buffer.from([0]), Buffer.from("# speky:zz#Z\n")]));
    const result = await scan([{ project: "w", root: base, patterns: ["bin/*"] }]);
    expect(result.references).toEqual([]);
    expect(result.diagnostics).toEqual([{ file: "bin/blob.py", line: 0, column: 0, severity: "warning", message: MESSAGES.notText }]);
  });

  it("reports tags in a file no grammar handles", async () => {
    const result = await scan([{ project: "w", root: base, patterns: ["src/*.md"] }]);
    expect(result.references).toEqual([]);
    expect(result.diagnostics).toEqual([{ file: "src/README.md", line: 1, column: 3, severity: "warning", message: MESSAGES.noGrammar }]);
  });
});

describe("scanPaths", () => {
  it("scans files and directories under one project, relative to cwd", async () => {
    write("paths/tool", "#!/usr/bin/env python3\n# speky:p#SCRIPT\ndef main():\n    pass\n");
    write("paths/lib/x.go", "package x\n\n// speky:p#GO\nfunc X() {}\n");
    const result = await scanPaths("p", ["tool", "lib", "missing.py"], path.join(root, "paths"));
    expect(result.references.map((r) => [r.file, r.id, r.symbol, r.language])).toEqual([
      ["lib/x.go", "GO", "X", "go"],
      ["tool", "SCRIPT", "main", "python"],
    ]);
    expect(result.diagnostics).toEqual([
      { file: "missing.py", line: 0, column: 0, severity: "warning", message: "no such file or directory" },
    ]);
  });
});

describe("scanFileBuffer", () => {
  it("does not parse a file without the marker", async () => {
    expect(await scanFileBuffer("/x/a.py", Buffer.from("def f(): pass\n"))).toEqual({ language: "python", tags: [], diagnostics: [] });
  });

  it("reports the tags of a file that is not text", async () => {
    const result = await scanFileBuffer("/x/a.py", Buffer.from("\0\0# speky:bin#B\n", "latin1"));
    expect(result.tags).toMatchObject([{ line: 0, column: 0, project: "bin", id: "B", reference: false, warning: MESSAGES.notText }]);
  });

  it("strips a BOM, counts code points and reads CRLF files", async () => {
    const text = '\uFEFFx = "😀😀"  # speky:t#EMOJI\r\n# speky:t#F\r\ndef f():\r\n    pass\r\n\r\n# speky:t#BLANK\r\n\r\ndef g(): pass\r\n';
    const result = await scanFileBuffer("/x/a.py", Buffer.from(text, "utf8"));
    expect(result.tags.map((t) => [t.id, t.line, t.column, t.symbol])).toEqual([
      ["EMOJI", 1, 13, null],
      ["F", 3, 5, "f"],
      ["BLANK", 6, 3, null],
    ]);
  });
});

describe("scanText", () => {
  it("reports a tag near a syntax error as a free reference with a warning", async () => {
    const result = await scanText("a.js", "javascript", "function broken( {\n  // speky:t#ERR\n  let x = ;\n}\n");
    expect(result.tags).toMatchObject([{ id: "ERR", line: 2, symbol: null, reference: true, warning: MESSAGES.parseErrorComment }]);
  });

  it("warns about a tag in code", async () => {
    const result = await scanText("a.js", "javascript", "const re = /speky:t#RE/;\n");
    expect(result.tags).toMatchObject([{ id: "RE", reference: false, warning: MESSAGES.inCode }]);
  });

  it("warns about a marker without a tag in a comment, not in code", async () => {
    const result = await scanText("a.py", "python", '# speky: nothing\nMARKER = "speky:"\n# speky://uri speky:<project>#<ID>\n');
    expect(result.tags).toEqual([]);
    expect(result.diagnostics).toEqual([{ line: 1, column: 3, message: MESSAGES.malformed }]);
  });
});

describe("the marker prefilter", () => {
  // speky:speky-ts#TSCAN-PREFILTER
  it("finds the marker in bytes exactly where Buffer.indexOf does, near misses and edges included", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = Buffer.from("spekySPEK:y k\n");
    let found = 0;
    for (let round = 0; round < 20_000; round++) {
      const bytes = Buffer.alloc(next() % 24);
      for (let i = 0; i < bytes.length; i++) bytes[i] = alphabet[next() % alphabet.length];
      if (round % 7 === 0 && bytes.length >= 6) Buffer.from("speky:").copy(bytes, next() % (bytes.length - 5));
      const expected = bytes.indexOf("speky:") >= 0;
      if (expected) found++;
      expect(holdsMarker(bytes), JSON.stringify(bytes.toString())).toBe(expected);
    }
    expect(found).toBeGreaterThan(1500);
  });
});
