// Issue 12, defects 8 and 10: no input starts a line of its own in any output (CI log
// injection through a file name), and the server leaves promptly once its stdout is gone.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { escapeControl } from "../../src/diagnostics.js";
import { connectMeasured, MAX_RSS_MB, MeasuredServer, runSpekyMeasured } from "../support/measured.js";
import { tempDir } from "../support/process.js";

const FORGED_NAME = "x\n::error file=FORGED.py,line=1::forged\ny.py";

/** A project whose one source file has a hostile name and holds a dangling tag. */
function forgedTree(): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, "speky.yaml"), "kind: project\nname: orb\nfiles:\n  - reqs.yaml\ncode_sources:\n  - src/**/*.py\n");
  writeFileSync(path.join(dir, "reqs.yaml"), "kind: requirements\ncategory: orbit\nrequirements:\n  - id: ORB-001\n    long: x\n");
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src", FORGED_NAME), '# speky:orb#ORB-999\ndef f():\n    return "speky:orb#ORB-001"\n');
  // Every other control character, and the Unicode line separators, in one more name.
  writeFileSync(path.join(dir, "src", "z\r\u001b[2J\u0085\u2028\u2029\u007f.py"), "# speky:orb#ORB-998\n");
  return dir;
}

/** No line of the output is (or contains) the forged annotation, and none holds a raw control. */
function expectNoForgedLine(output: string): void {
  for (const line of output.split("\n")) {
    expect(line.startsWith("::error file=FORGED.py")).toBe(false);
    expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  }
}

describe("control characters in file names and messages", () => {
  // speky:speky-ts#TSEC-LOG-INJECTION
  it("are escaped in speky check text, json and github output", () => {
    const dir = forgedTree();
    const text = runSpekyMeasured(["check", "speky.yaml"], dir);
    expect(text.status).toBe(1);
    expectNoForgedLine(text.stdout);
    expect(text.stdout).toContain(`src/${escapeControl(FORGED_NAME)}:1:3: error: tag speky:orb#ORB-999 names an unknown ID`);
    expect(text.stdout).toContain("src/x\\n::error file=FORGED.py,line=1::forged\\ny.py:1:3");
    expect(text.stdout).toContain("src/z\\r\\x1b[2J\\x85\\u2028\\u2029\\x7f.py:1:3");

    const github = runSpekyMeasured(["check", "speky.yaml", "--format", "github"], dir);
    expectNoForgedLine(github.stdout);
    expect(github.stdout).toContain("::error file=src/x%0A%3A%3Aerror file=FORGED.py%2Cline=1%3A%3Aforged%0Ay.py,line=1,col=3::");

    const json = runSpekyMeasured(["check", "speky.yaml", "--format", "json"], dir);
    expectNoForgedLine(json.stdout);
    // Still the real names for a JSON reader.
    const files = (JSON.parse(json.stdout) as { findings: { file: string }[] }).findings.map((f) => f.file);
    expect(files).toContain(`src/${FORGED_NAME}`);
    expect(files).toContain("src/z\r\u001b[2J\u0085\u2028\u2029\u007f.py");
    for (const run of [text, github, json]) expect(run.peakMB).toBeLessThan(MAX_RSS_MB);
  });

  it("are escaped in speky scan output", () => {
    const dir = forgedTree();
    const scan = runSpekyMeasured(["scan", "speky.yaml"], dir);
    expect(scan.status).toBe(0);
    expectNoForgedLine(scan.stdout);
    const out = JSON.parse(scan.stdout) as { references: { file: string }[] };
    expect(out.references.map((r) => r.file)).toContain(`src/${FORGED_NAME}`);
    // A spec that does not load: its diagnostics go to stderr, as text.
    writeFileSync(
      path.join(dir, "reqs.yaml"),
      'kind: requirements\ncategory: orbit\nrequirements:\n  - id: "A\\nB\\u2028::error::x"\n    long: [\n',
    );
    const failing = runSpekyMeasured(["scan", "speky.yaml"], dir);
    expect(failing.status).toBe(1);
    expectNoForgedLine(failing.stderr);
  });

  it("are escaped in the MCP server's log lines", async () => {
    const dir = forgedTree();
    const server = new MeasuredServer(["speky.yaml"], dir);
    server.child.stdin.end();
    const { code, peakMB } = await server.exit();
    expect(code).toBe(0);
    expect(server.stderr).toContain(escapeControl(FORGED_NAME));
    expectNoForgedLine(server.stderr);
    expect(peakMB).toBeLessThan(MAX_RSS_MB);
  });
});

describe("a spec file whose name holds a forged annotation", () => {
  it("is escaped in the running server's stale note", async () => {
    const dir = tempDir();
    const name = "a\n::error file=FORGED.py,line=1::forged\n.yaml";
    writeFileSync(path.join(dir, "speky.yaml"), "kind: project\nname: orb\nfiles:\n  - specs/*.yaml\n");
    mkdirSync(path.join(dir, "specs"));
    writeFileSync(path.join(dir, "specs", name), "kind: requirements\ncategory: c\nrequirements:\n  - id: R-1\n    long: x\n");
    const session = await connectMeasured(["speky.yaml"], dir);
    writeFileSync(path.join(dir, "specs", name), "kind: requirements\ncategory: c\nrequirements:\n  - id: R-1\n    long: [\n");
    let note: string | undefined;
    for (let tries = 0; tries < 600 && note === undefined; tries++) {
      const answer = await session.client.callTool({ name: "list_all_ids", arguments: {} });
      note = (answer._meta as Record<string, string> | undefined)?.["speky-ts/stale"];
      if (note === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(note).toMatch(/^specs\/a\\n::error file=FORGED\.py,line=1::forged\\n\.yaml:\d+:\d+: error: /);
    expectNoForgedLine(note!);
    expect(note!.split("\n")).toHaveLength(1);
    expect(await session.close()).toBeLessThan(MAX_RSS_MB);
  });
});

describe("the server's stdout closing", () => {
  // speky:speky-ts#TSEC-EPIPE
  it("ends the server cleanly and promptly, though stdin stays open", async () => {
    const dir = forgedTree();
    const server = new MeasuredServer(["speky.yaml", "--verbose"], dir);
    const answered = new Promise<void>((resolve) => server.child.stdout.once("data", () => resolve()));
    const request = (id: number) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;
    server.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      })}\n`,
    );
    await answered;
    // The client stops reading: the next answers hit a closed pipe (EPIPE).
    server.child.stdout.destroy();
    for (let id = 1; id <= 3; id++) server.child.stdin.write(request(id));
    // stdin is never closed: only the broken stdout may end the server; the guard fails a linger.
    const { code, signal, peakMB } = await server.exit(30_000);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(server.stderr).toMatch(/EPIPE/);
    expect(peakMB).toBeLessThan(MAX_RSS_MB);
  });
});
