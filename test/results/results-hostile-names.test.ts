// Results files against the third attack (issue 48, "Results files"): a results glob never
// follows a link out of the boundary, in check, export, report and speky-mcp; matching is
// linear in a testcase's text (a googletest classname of 200,000 characters, `.each` titles
// with placeholders against long names); a 20 MB name is cut with a warning, not a stack
// overflow; a 100 MB name is never held whole (the reader runs in a small heap); a failure
// message in an LSP hover is no live link. Bounds are counts and generous limits.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verificationHover } from "../../src/lsp/verification.js";
import { loadModel } from "../../src/model/load-model.js";
import { verify } from "../../src/model/verification.js";
import { readJUnitFile } from "../../src/results/junit-reader.js";
import { readResults } from "../../src/results/read-results.js";
import { NO_TURNS, Turns } from "../../src/turns.js";
import { call, connect } from "../support/mcp.js";
import { runSpeky, SPEKY_BIN, tempDir } from "../support/process.js";
import { resultsTree, writeTreeFile } from "../support/results-tree.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tree(testResults = false): string {
  const dir = resultsTree({ testResults });
  dirs.push(dir);
  return dir;
}
function outside(): string {
  const dir = tempDir("speky-outside-");
  dirs.push(dir);
  writeFileSync(
    path.join(dir, "r.xml"),
    '<testsuite><testcase classname="tests.test_shop" name="test_bad[2]"><failure message="SECRET-OUTSIDE-4d2"/></testcase></testsuite>\n',
  );
  return dir;
}

// speky:speky-ts#TRESULTS-LINKS
describe("a results glob through a link the repository ships", () => {
  it("reports -> /outside and a file link are refused in check, export, report and speky-mcp", async () => {
    const dir = tree();
    const out = outside();
    symlinkSync(out, path.join(dir, "reports"));
    mkdirSync(path.join(dir, "reports2"));
    symlinkSync(path.join(out, "r.xml"), path.join(dir, "reports2/r.xml"));
    const outputs: string[] = [];
    for (const glob of ["reports/*.xml", "reports2/r.xml", "reports2/*.xml"]) {
      const check = runSpeky(["check", "speky.yaml", "--results", glob], dir);
      expect(check.stdout).toContain(`--results: '${glob}' reaches outside the project`);
      outputs.push(check.stdout, check.stderr);
    }
    const exported = runSpeky(["export", "speky.yaml", "--results", "reports/*.xml"], dir);
    const markdown = runSpeky(["report", "speky.yaml", "--format", "markdown", "--results", "reports2/r.xml"], dir);
    outputs.push(exported.stdout, exported.stderr, markdown.stdout, markdown.stderr);
    const session = await connect([path.join(dir, "speky.yaml"), "--results", "reports/*.xml", "--results", "reports2/r.xml"], {
      cwd: dir,
    });
    outputs.push(JSON.stringify((await call(session.client, "verification_status", {})).structured));
    outputs.push(JSON.stringify((await call(session.client, "get_test", { id: "T-BAD" })).structured));
    await session.close();
    expect(outputs.join("\n")).not.toContain("SECRET-OUTSIDE");
  });

  it("a link that stays in the project is followed", () => {
    const dir = tree();
    writeTreeFile(dir, "ci/out/r.xml", readFileSync(path.join(outside(), "r.xml")));
    symlinkSync(path.join(dir, "ci/out"), path.join(dir, "reports"));
    // A git work tree is the boundary: a link inside it is the project's own.
    mkdirSync(path.join(dir, ".git"));
    const check = runSpeky(["check", "speky.yaml", "--results", "reports/*.xml"], dir);
    expect(check.stdout).toContain("SECRET-OUTSIDE-4d2");
  });
});

/** A googletest file of one case whose classname is `length` characters long. */
const googletestXml = (classname: string) =>
  `<testsuites><testsuite name="S"><testcase name="Adds" file="tests/x.cpp" line="3" classname="${classname}"><failure message="boom"/></testcase></testsuite></testsuites>\n`;

// speky:speky-ts#TRESULTS-LINEAR
describe("matching linear in a testcase's text", () => {
  it("a googletest classname of 200,000 characters and .each titles against long names end soon", () => {
    const dir = tree();
    writeTreeFile(dir, "tests/x.cpp", "#include <gtest/gtest.h>\n// speky:mini#T-OK\nTEST(Basket, Adds) {}\n");
    writeTreeFile(
      dir,
      "tests/each.test.js",
      ['describe("Basket", () => {', "  // speky:mini#T-BAD", '  it.each([[1, 2, 3, 4]])("%s a %s b %s c %s", () => {});', "});", ""].join(
        "\n",
      ),
    );
    writeFileSync(path.join(dir, "speky.yaml"), readFileSync(path.join(dir, "speky.yaml"), "utf8").replace("tests/*.py", "tests/*"));
    mkdirSync(path.join(dir, "reports"));
    writeFileSync(path.join(dir, "reports/gtest.xml"), googletestXml("1".repeat(200_000)));
    const cases: string[] = [];
    for (let i = 0; i < 60; i++) cases.push(`<testcase classname="tests/each.test.js" name="Basket &gt; ${"a".repeat(280)}${i}"/>`);
    writeFileSync(path.join(dir, "reports/vitest.xml"), `<testsuites><testsuite name="v">${cases.join("")}</testsuite></testsuites>\n`);
    const r = runSpeky(["check", "speky.yaml", "--results", "reports/*.xml"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("reports/gtest.xml:1:");
    expect(r.stdout).toContain("warning: a testcase's name longer than 4,096 characters is cut to its start");
  }, 60_000);

  it("a 20 MB testcase name is cut with a located warning, no stack overflow, and the references stay", async () => {
    const dir = tree();
    mkdirSync(path.join(dir, "reports"));
    const name = `test_ok${"x".repeat(20 * 1024 * 1024)}`;
    writeFileSync(
      path.join(dir, "reports/long.xml"),
      `<testsuite>\n<testcase classname="tests.test_shop" name="test_ok"/>\n<testcase classname="tests.test_shop" name="${name}"/>\n</testsuite>\n`,
    );
    const r = runSpeky(["check", "speky.yaml", "--results", "reports/*.xml"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/reports\/long\.xml:3:\d+: warning: a testcase's name longer than 4,096 characters is cut to its start\n/);
    const session = await connect([path.join(dir, "speky.yaml"), "--results", "reports/*.xml"], { cwd: dir });
    const test = (await call(session.client, "get_test", { id: "T-OK" })).structured as { verification?: { status: string } };
    await session.close();
    expect(test.verification?.status).toBe("passed");
  }, 60_000);

  it("names are kept cut, with a count of the others", async () => {
    const dir = tree();
    const file = path.join(dir, "many.xml");
    const rows = Array.from({ length: 3 }, () => `<testcase classname="c" name="${"n".repeat(10_000)}"/>`).join("\n");
    writeFileSync(file, `<testsuite>\n${rows}\n</testsuite>\n`);
    const read = await readJUnitFile(file, "many.xml", 0, 1000);
    expect(read.testcases.map((t) => t.name.length)).toEqual([4096, 4096, 4096]);
    expect(read.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      "2 a testcase's name longer than 4,096 characters is cut to its start (and 2 more)",
    ]);
  });
});

// speky:speky-ts#TRESULTS-MEMORY
describe("memory proportional to the testcases kept", () => {
  it("a 100 MB testcase name is read in a 96 MB heap", () => {
    const dir = tree();
    mkdirSync(path.join(dir, "reports"));
    const chunk = "x".repeat(1024 * 1024);
    const parts = ['<testsuite><testcase classname="tests.test_shop" name="test_ok'];
    for (let i = 0; i < 100; i++) parts.push(chunk);
    parts.push('"><failure message="', chunk.repeat(8), '"/></testcase></testsuite>\n');
    writeFileSync(path.join(dir, "reports/big.xml"), parts.join(""));
    const r = spawnSync(process.execPath, ["--max-old-space-size=96", SPEKY_BIN, "check", "speky.yaml", "--results", "reports/*.xml"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("warning: a testcase's name longer than 4,096 characters is cut to its start");
  }, 60_000);
});

// speky:speky-ts#TRESULTS-HOVER-DEFUSED
describe("a failure message in an LSP hover", () => {
  it("is Markdown-escaped and link-defused as spec text is", async () => {
    const dir = tree();
    mkdirSync(path.join(dir, "reports"));
    const message = "see http://2130706433/x or www.evil.test, mail a@b.co [x](http://e.test) <b>";
    writeFileSync(
      path.join(dir, "reports/r.xml"),
      `<testsuite><testcase classname="tests.test_shop" name="test_bad[2]"><failure message="${message.replace("<b>", "&lt;b&gt;")}"/></testcase></testsuite>\n`,
    );
    const { model } = await loadModel([path.join(dir, "speky.yaml")], { cwd: dir, cache: false, results: ["reports/*.xml"] });
    const hover = verificationHover(model!, "T-BAD");
    expect(hover).toContain("see http\\://2130706433/x or www\\.evil\\.test, mail a\\@b\\.co \\[x\\]\\(http\\://e\\.test\\) \\<b\\>");
    expect(hover).not.toMatch(/(?<!\\)https?:\/\//);
  });
});

// speky:speky-ts#TRESULTS-RESPONSIVE
describe("a server's matching", () => {
  it("gives the event loop turns while it matches 50,000 testcases, and none on the command line", async () => {
    const dir = tree(true);
    const cases = Array.from({ length: 50_000 }, (_, i) => `<testcase classname="tests.test_shop" name="test_bad[${i}]"/>`);
    writeFileSync(path.join(dir, "reports/pytest.xml"), `<testsuite>\n${cases.join("\n")}\n</testsuite>\n`);
    const { model } = await loadModel([path.join(dir, "speky.yaml")], { cwd: dir, cache: false });
    const read = await readResults({ manifests: model!.specs.manifests, globs: [], cwd: dir });
    const turnsTaken = async (turns: Turns) => {
      let ticks = 0;
      let running = true;
      const tick = () => {
        ticks++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const v = await verify(model!, read, turns);
      running = false;
      expect(v.testcasesMatched).toBe(50_000);
      return ticks;
    };
    expect(await turnsTaken(NO_TURNS)).toBe(0);
    expect(await turnsTaken(new Turns(true))).toBeGreaterThan(0);
  }, 60_000);
});
