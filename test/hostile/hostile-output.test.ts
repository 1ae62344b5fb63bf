// Issue 25, output: the bidirectional controls (Trojan Source) in file names, patterns and spec
// text are escaped wherever output is escaped, by the one escaping function: check (text,
// github, json), scan, the report (HTML and Markdown), the server's log lines and the messages
// it answers. A file name shown `\u202e` cannot make a terminal or a page show another order.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { escapeControl, lineSafeJson } from "../../src/diagnostics.js";
import { esc } from "../../src/text/html-escape.js";
import { codeSpan, plainText } from "../../src/text/markdown-inline.js";
import { call, connect } from "../support/mcp.js";
import { runSpeky, tempDir } from "../support/process.js";

const T = "speky" + ":";
const BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
const RAW = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const scratch = tempDir("speky-hostile-output-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("bidirectional controls", () => {
  // speky:speky-ts#TSEC-BIDI-ESCAPE
  it("are escaped by the one function, in every form of output", () => {
    for (const c of BIDI) {
      const shown = `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
      expect(escapeControl(`a${c}b`)).toBe(`a${shown}b`);
      expect(escapeControl(`a${c}b\nc`, true)).toBe(`a${shown}b\nc`);
      expect(lineSafeJson(JSON.stringify(`a${c}b`))).toBe(`"a${shown}b"`);
      expect(JSON.parse(lineSafeJson(JSON.stringify(`a${c}b`)))).toBe(`a${c}b`);
      expect(esc(`<${c}>`)).toBe(`&lt;${shown}&gt;`);
      expect(plainText(`a${c}b`)).not.toMatch(RAW);
      expect(codeSpan(`a${c}b`)).toBe(`\`a${shown}b\``);
    }
    // Line breaks stay in the report's texts; every other control is shown.
    expect(esc("a\nb\tc\u0007")).toBe("a\nb\tc\\x07");
  });

  // speky:speky-ts#TSEC-BIDI-ESCAPE
  it("in file names, patterns and spec text never reach check, scan, the report or the server raw", async () => {
    const dir = path.join(scratch, "tree");
    // A Python file that a terminal shows as `evilyp.txt`, a pattern, a field and a title with bidi controls.
    const name = "src/evil\u202etxt.py";
    mkdirSync(path.join(dir, "src"), { recursive: true });
    writeFileSync(path.join(dir, name), `# ${T}p#NOPE\n# ${T}p#R1\n`);
    writeFileSync(
      path.join(dir, "speky.yaml"),
      `kind: project\nname: p\nfiles: [r.yaml]\ncode_sources: ['src/*', 'src/\u2066none\u2069*.py']\n`,
    );
    writeFileSync(
      path.join(dir, "r.yaml"),
      `kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    short: "a\u202eb"\n    long: x\n    unknown\u200f: 1\n`,
    );
    const outputs: [string, string][] = [];
    for (const args of [
      ["check"],
      ["check", "--format", "github"],
      ["check", "--format", "json"],
      ["check", "--format", "sarif"],
      ["scan"],
      ["report", "--format", "markdown"],
    ]) {
      const r = runSpeky([...args, "--no-cache", "speky.yaml"], dir);
      outputs.push([args.join(" "), r.stdout + r.stderr]);
    }
    const check = outputs[0][1];
    expect(check).toContain("src/evil\\u202etxt.py:1:3: error: tag speky:p#NOPE names an unknown ID 'NOPE'");
    expect(check).toContain("'src/\\u2066none\\u2069*.py' matched no file");
    expect(check).toContain("unknown field 'unknown\\u200f' (ignored)");
    // JSON keeps the real name for a reader, escaped in the text.
    expect(JSON.parse(outputs[2][1]).findings.map((f: { file: string }) => f.file)).toContain(name);
    const html = path.join(dir, "site");
    runSpeky(["report", "--no-cache", "--out", "site", "speky.yaml"], dir);
    for (const page of readdirSync(html, { recursive: true, withFileTypes: true }).filter((e) => e.name.endsWith(".html"))) {
      outputs.push([page.name, readFileSync(path.join(page.parentPath, page.name), "utf8")]);
    }
    const session = await connect(["--no-watch", "speky.yaml"], { cwd: dir });
    try {
      const problems = (await call(session.client, "list_problems")).structured as { problems: { message: string }[] };
      outputs.push(["list_problems messages", problems.problems.map((p) => p.message).join("\n")]);
      outputs.push(["server log", session.stderr()]);
    } finally {
      await session.close();
    }
    for (const [where, text] of outputs) expect(text, where).not.toMatch(RAW);
    expect(outputs.map(([where]) => where)).toContain("index.html");
  });
});
