// The replay against speky (bench/speky-replay/main.ts) needs a clone of speky and runs by hand;
// what it concludes rests on its rules. Here, without speky, every rule names a row that
// docs/speky-differences.md has, and the rules explain what their row says and nothing else,
// on answers written by hand the way speky's server writes them (structuredContent only,
// keys sorted, no null symbol, bare symbols, Python's repr in error texts).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolCall } from "../../bench/speky-replay/calls.js";
import { compareAnswers, RULES, type TreeContext } from "../../bench/speky-replay/rules.js";
import { REPO } from "../support/process.js";

const TREE: TreeContext = { coverageCategories: true, automationDiffers: new Set(), coverageFollows: new Set() };
const ours = (structuredContent: object, isError = false) => ({
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent, ...(isError ? { isError } : {}) },
});
const speky = (structuredContent: object, isError = false) => ({
  jsonrpc: "2.0",
  id: 1,
  result: { ...(isError ? { isError } : {}), structuredContent },
});
const rulesOf = (diffs: { rule: string | null }[]) => diffs.map((d) => d.rule);

describe("the rules of the replay against speky", () => {
  // speky:speky-ts#TMCP-SPEKY-REPLAY
  it("each name a row of docs/speky-differences.md", () => {
    const doc = readFileSync(path.join(REPO, "docs/speky-differences.md"), "utf8");
    const firstCells = new Set([...doc.matchAll(/^\| (.+?) \|/gm)].map((m) => m[1]));
    for (const rule of RULES) expect(firstCells, rule.name).toContain(rule.row);
  });

  // speky:speky-ts#TMCP-SPEKY-REPLAY
  it("explain speky's answer shapes, and leave any other difference unexplained", () => {
    const call = toolCall("get_requirement", { id: "SF010" });
    const mine = { id: "SF010", category: "functional", code_references: [{ file: "a.py", line: 3, symbol: "Spec.read", url: "u#L3" }] };
    const theirs = { category: "functional", code_references: [{ file: "a.py", line: 3, symbol: "read", url: "u#L3" }], id: "SF010" };
    expect(new Set(rulesOf(compareAnswers(call, speky(theirs), ours(mine), TREE)))).toEqual(
      new Set(["text content block", "qualified symbol"]),
    );
    const free = { id: "X", code_references: [{ file: "m.py", line: 4, symbol: null, url: "u#L4" }] };
    const docstring = { id: "X", code_references: [{ file: "m.py", line: 1, url: "u#L1" }] };
    expect(new Set(rulesOf(compareAnswers(call, speky(docstring), ours(free), TREE)))).toEqual(
      new Set(["text content block", "module docstring line", "symbol null", "url of the line"]),
    );
    // Another category is no documented difference.
    const wrong = { ...mine, category: "non-functional", code_references: [] };
    expect(rulesOf(compareAnswers(call, speky({ ...theirs, code_references: [] }), ours(wrong), TREE))).toContain(null);
  });

  // speky:speky-ts#TMCP-SPEKY-REPLAY
  it("explain repr quoting only where the value holds a quote, and did_you_mean only as an added field", () => {
    const call = toolCall("search_requirements", { tag: "it's" });
    const rules = rulesOf(
      compareAnswers(
        call,
        speky({ error: `Tag "it's" not found` }, true),
        ours({ error: "Tag 'it's' not found", did_you_mean: "its" }, true),
        TREE,
      ),
    );
    expect(new Set(rules)).toEqual(new Set(["text content block", "repr quoting", "did_you_mean"]));
    const other = toolCall("search_requirements", { tag: "x" });
    expect(
      rulesOf(compareAnswers(other, speky({ error: "Tag 'x' not found" }, true), ours({ error: "Tag 'y' not found" }, true), TREE)),
    ).toContain(null);
  });
});

describe("the replay's parse server (scripts/speky-replay/parse-server.mjs)", () => {
  // speky:speky-ts#TMCP-SPEKY-REPLAY
  it("loads the built grammar modules it imports and answers one tree per request", () => {
    const source = Buffer.from("def f():\n  pass\n").toString("base64");
    const ran = spawnSync(process.execPath, [path.join(REPO, "scripts/speky-replay/parse-server.mjs")], {
      input: `python\t${source}\n`,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(ran.stderr).toBe("");
    const tree = JSON.parse(ran.stdout.trim());
    expect(tree[0]).toBe("module");
    expect(JSON.stringify(tree)).toContain('"function_definition"');
  });
});
