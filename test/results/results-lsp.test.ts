// `speky lsp --results`: a hover on a tag tells the last run's result, a code lens above each
// test plan its status; a results file rewritten by a test run is served.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeLens, Hover } from "vscode-languageserver-protocol";
import { type LspSession, startLsp } from "../support/lsp.js";
import { pytestXml, resultsTree } from "../support/results-tree.js";

const hoverText = (h: Hover | null) => (h && typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "");

// speky:speky-ts#TEST-RESULTS-LSP
describe("speky lsp with test results", () => {
  let dir: string;
  let session: LspSession;
  beforeAll(async () => {
    dir = resultsTree({ testResults: false });
    writeFileSync(path.join(dir, "junit.xml"), pytestXml(true));
    session = await startLsp(dir, { args: ["--results", "junit.xml"] });
    await session.status((s) => s.state === "ready" && s.scanned);
  });
  afterAll(async () => {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const hover = async (line: number, character: number) =>
    hoverText(
      (await session.connection.sendRequest("textDocument/hover", {
        textDocument: { uri: session.uri("tests/test_shop.py") },
        position: { line, character },
      })) as Hover | null,
    );

  it("shows the last result in the hover of a tag", async () => {
    session.open("tests/test_shop.py", undefined, "python");
    const bad = await hover(8, 16);
    expect(bad).toContain(
      "**Last run:** failed (run of 2026\\-03\\-04T05:06:07\\.000001)\n\n- failed: `tests/test_shop.py:11` test\\_bad: test\\_bad\\[2\\]: AssertionError: assert 2 == 1",
    );
    expect(await hover(3, 16)).toContain("**Last run:** passed");
  });

  it("shows each test plan's status in a code lens", async () => {
    session.open("specs/tests.yaml", undefined, "yaml");
    const lenses = (await session.connection.sendRequest("textDocument/codeLens", {
      textDocument: { uri: session.uri("specs/tests.yaml") },
    })) as CodeLens[];
    expect(lenses.map((l) => `${l.range.start.line}: ${l.command?.title}`)).toEqual([
      "3: last run: passed (1 of 1 tagged test passed)",
      "8: last run: failed (0 of 1 tagged test passed, 1 failed)",
      "13: last run: manual",
    ]);
  });

  it("follows a test run that rewrites the results", async () => {
    writeFileSync(path.join(dir, "junit.xml"), pytestXml(false));
    let text = "";
    for (let i = 0; i < 200 && !text.includes("**Last run:** passed"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await hover(8, 16);
    }
    expect(text).toContain("**Last run:** passed");
  });
});
