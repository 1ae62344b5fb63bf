// Results files are untrusted input (docs/security.md, "Test results"): malformed XML is one
// located error and that file's results are ignored; a DOCTYPE is refused where it starts (an
// entity bomb is never expanded, an external entity never read: the named file's content
// appears nowhere); the size of a file and the testcases of a run are bounded; nothing
// outside the boundary is read. Each case runs the built binaries on a small pytest tree.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, connect } from "../support/mcp.js";
import { runSpeky, tempDir } from "../support/process.js";
import { pytestXml, resultsTree } from "../support/results-tree.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tree(): string {
  const dir = resultsTree();
  dirs.push(dir);
  return dir;
}
const check = (dir: string, ...args: string[]) => runSpeky(["check", "speky.yaml", ...args], dir);

/** Every file under a folder, as one text. */
function allText(dir: string): string {
  let text = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += readFileSync(path.join(entry.parentPath, entry.name), "latin1");
  }
  return text;
}

// speky:speky-ts#TEST-RESULTS-HOSTILE
describe("hostile results files", () => {
  it("malformed XML: one located error, that file's results ignored, the others read", () => {
    const dir = tree();
    writeFileSync(path.join(dir, "reports/broken.xml"), '<testsuite>\n  <testcase name="test_ok">\n  </testsuite>\n');
    const r = check(dir);
    expect(r.stdout).toContain("reports/broken.xml:3:14: error: unexpected close tag; its results are ignored\n");
    // The other file still counts: its failed test is reported.
    expect(r.stdout).toContain("error: test plan T-BAD (verifies R-BAD) failed");
    expect(r.status).toBe(1);
  });

  it("not a JUnit report, not UTF-8, empty: each one located error", () => {
    const dir = tree();
    writeFileSync(path.join(dir, "reports/page.xml"), "<html><body/></html>\n");
    writeFileSync(path.join(dir, "reports/latin1.xml"), Buffer.from('<testsuite name="caf\xe9"/>\n', "latin1"));
    writeFileSync(path.join(dir, "reports/empty.xml"), "");
    const r = check(dir);
    expect(r.stdout).toContain(
      "reports/page.xml:1:6: error: the root element is <html>, not <testsuites> or <testsuite>: not a JUnit XML report; its results are ignored\n",
    );
    expect(r.stdout).toMatch(
      /reports\/latin1\.xml:1:\d+: error: not UTF-8 text \(results files are read as UTF-8\); its results are ignored\n/,
    );
    expect(r.stdout).toMatch(/reports\/empty\.xml:1:1: error: document must contain a root element; its results are ignored\n/);
  });

  it("a DOCTYPE with an entity bomb: refused where it starts, nothing expanded", () => {
    const dir = tree();
    const levels = ['<!ENTITY a0 "boom">'];
    for (let i = 1; i < 12; i++) levels.push(`<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`);
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE testsuite [\n${levels.join("\n")}\n]>\n<testsuite><testcase classname="tests.test_shop" name="&a11;"/></testsuite>\n`;
    writeFileSync(path.join(dir, "reports/bomb.xml"), bomb);
    const r = check(dir);
    expect(r.stdout).toContain(
      "reports/bomb.xml:2:1: error: a DOCTYPE is not allowed in a results file (no DTD, no entities are read); its results are ignored\n",
    );
    expect(r.stdout + r.stderr).not.toContain("boomboom");
  });

  it("an external entity naming a local file: never read, its content nowhere", async () => {
    const dir = tree();
    const secret = path.join(tempDir("speky-secret-"), "secret.txt");
    dirs.push(path.dirname(secret));
    const content = "SECRET-7f3a9c-never-shown";
    writeFileSync(secret, content);
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE testsuite [ <!ENTITY leak SYSTEM "file://${secret}"> ]>\n<testsuite><testcase classname="tests.test_shop" name="test_ok"><failure message="&leak;">&leak;</failure></testcase></testsuite>\n`;
    writeFileSync(path.join(dir, "reports/xxe.xml"), xxe);
    // A link to it among the results: outside the boundary, never followed.
    symlinkSync(secret, path.join(dir, "reports/linked.xml"));
    const r = check(dir);
    expect(r.stdout).toContain("reports/xxe.xml:2:1: error: a DOCTYPE is not allowed in a results file");
    expect(r.stdout).toContain("test_results: 'reports/*.xml' reaches outside the project");
    const report = runSpeky(["report", "speky.yaml", "--out", "site"], dir);
    expect(report.status).toBe(0);
    const markdown = runSpeky(["report", "speky.yaml", "--format", "markdown"], dir);
    const session = await connect([path.join(dir, "speky.yaml")], { cwd: dir });
    const answers = [];
    for (const [tool, args] of [
      ["verification_status", {}],
      ["list_problems", {}],
      ["get_test", { id: "T-OK" }],
    ] as const) {
      answers.push(JSON.stringify((await call(session.client, tool, args)).structured));
    }
    await session.close();
    const everything = [
      r.stdout,
      r.stderr,
      report.stdout,
      report.stderr,
      markdown.stdout,
      allText(path.join(dir, "site")),
      ...answers,
    ].join("\n");
    expect(everything).not.toContain(content);
    expect(everything).not.toContain("SECRET-7f3a9c");
  });

  it("100 MB of testcases: reading stops at the run's bound, the file is ignored with a located error", () => {
    const dir = tree();
    const file = path.join(dir, "reports/huge.xml");
    const fd = openSync(file, "w");
    const row = '<testcase classname="tests.test_shop" name="test_ok" time="0.001"/>\n';
    const chunk = row.repeat(16384);
    writeSync(fd, '<?xml version="1.0"?>\n<testsuite name="huge">\n');
    const target = 100 * 1024 * 1024;
    for (let written = 0; written < target; written += chunk.length) writeSync(fd, chunk);
    writeSync(fd, "</testsuite>\n");
    closeSync(fd);
    expect(statSync(file).size).toBeGreaterThan(target);
    const r = check(dir);
    // reports/huge.xml is read first (before pytest.xml): its testcases start on line 3, and the 500,001st fails it.
    expect(r.stdout).toContain(`reports/huge.xml:${2 + 500_001}:`);
    expect(r.stdout).toContain("error: more than 500,000 testcases in this run's results; its results are ignored\n");
    expect(r.stdout).toContain("error: test plan T-BAD (verifies R-BAD) failed");
  });

  it("a results file larger than 128 MB is refused unread", () => {
    const dir = tree();
    const fd = openSync(path.join(dir, "reports/sparse.xml"), "w");
    // Sparse: 200 MB long, no disk used.
    writeSync(fd, "<testsuite>", 200 * 1024 * 1024);
    closeSync(fd);
    const r = check(dir);
    expect(r.stdout).toContain(
      "reports/sparse.xml: error: results file: file is too large (200.0 MB; the limit is 128 MB); its results are ignored\n",
    );
  });

  it("a results glob outside the project is refused at load, like code_sources", () => {
    const dir = tree();
    const manifest = path.join(dir, "speky.yaml");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("test_results: [reports/*.xml]", "test_results: [../*.xml]"));
    const r = check(dir);
    expect(r.stdout).toMatch(/speky\.yaml:5:\d+: error: '\.\.\/\*\.xml' (starts|reaches) outside the project/);
    expect(r.status).toBe(1);
  });

  it("results from a FIFO or a folder named .xml are never opened", () => {
    const dir = tree();
    mkdirSync(path.join(dir, "reports/folder.xml"));
    writeFileSync(path.join(dir, "reports/folder.xml/inner.xml"), pytestXml(false));
    const r = check(dir);
    // A folder matched by the glob is no file; its own files are not what `reports/*.xml` names.
    expect(r.stdout).not.toContain("inner.xml");
    expect(r.stdout).toContain("error: test plan T-BAD");
  });
});
