// `speky lsp` under an editor's way of editing: incremental changes, text before a tag that
// is not ASCII, and a specification that does not load until the user fixes and saves it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Hover } from "vscode-languageserver-protocol";
import { type LspSession, startLsp } from "../support/lsp.js";
import { copyFixture } from "../support/process.js";

const sessions: LspSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

async function start(dir: string): Promise<LspSession> {
  const session = await startLsp(dir);
  sessions.push(session);
  return session;
}

const hoverText = (h: Hover | null) => (h && typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "");

describe("speky lsp and an editor's edits", () => {
  // speky:speky-ts#TEST-LSP-SOURCE-DIAGNOSTICS
  it("follows incremental changes, in UTF-16 columns after non-ASCII text", async () => {
    const s = await start(copyFixture("lsp"));
    await s.status((st) => st.state === "ready" && st.scanned);
    const v1 = s.open("src/emoji.ts", "// 😀 é speky:shop#REQ-CART\nexport const x = 1;\n", "typescript");
    expect(await s.diagnostics("src/emoji.ts", v1)).toEqual([]);
    // "// 😀 é " is 8 UTF-16 units: the emoji counts two. Type a "T" after the ID, in place.
    const v2 = s.edit("src/emoji.ts", { start: { line: 0, character: 27 }, end: { line: 0, character: 27 } }, "T");
    const found = await s.diagnostics("src/emoji.ts", v2, (d) => d.length > 0);
    expect(found.map((d) => [d.range.start.character, d.range.end.character, d.message])).toEqual([
      [8, 28, "tag speky:shop#REQ-CARTT names an unknown ID 'REQ-CARTT'; did you mean REQ-CART?"],
    ]);
    const hover = await s.connection.sendRequest<Hover>("textDocument/hover", {
      textDocument: { uri: s.uri("src/emoji.ts") },
      position: { line: 0, character: 10 },
    });
    expect(hover.range).toEqual({ start: { line: 0, character: 8 }, end: { line: 0, character: 28 } });
    // Delete it again; then add a line above: the tag moves down, the tree is reparsed from the edit.
    s.edit("src/emoji.ts", { start: { line: 0, character: 27 }, end: { line: 0, character: 28 } }, "");
    const v4 = s.edit(
      "src/emoji.ts",
      { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      "/* a block\n   comment */ // speky:shop#REQ-NOPE\n",
    );
    const moved = await s.diagnostics("src/emoji.ts", v4, (d) => d.length > 0);
    expect(moved.map((d) => [d.range.start.line, d.range.start.character, d.severity])).toEqual([[1, 17, 1]]);
  });

  // speky:speky-ts#TEST-LSP-LIVE
  it("shows why the specs do not load, and serves them once the buffer is fixed and saved", async () => {
    const dir = copyFixture("lsp");
    const file = path.join(dir, "specs/requirements.yaml");
    const good = readFileSync(file, "utf8");
    const bad = good.replace("ref: [REQ-CART]", "ref: [REQ-CARTS]");
    writeFileSync(file, bad);
    const s = await start(dir);
    const failed = await s.status((st) => st.state === "failed");
    expect(failed.requirements).toBe(0);
    const v1 = s.open("specs/requirements.yaml", bad, "yaml");
    const errors = await s.diagnostics("specs/requirements.yaml", v1, (d) => d.length > 0);
    expect(errors.map((d) => [d.range.start.line, d.range.start.character, d.message])).toEqual([
      [10, 10, "unknown ref 'REQ-CARTS' (no requirement or test has this ID); did you mean REQ-CART?"],
    ]);
    const v2 = s.change("specs/requirements.yaml", good);
    expect(await s.diagnostics("specs/requirements.yaml", v2)).toEqual([]);
    writeFileSync(file, good);
    s.save("specs/requirements.yaml");
    const ready = await s.status((st) => st.state === "ready");
    expect(ready.requirements).toBe(5);
    s.open("src/cart.ts", undefined, "typescript");
    const hover = await s.connection.sendRequest<Hover>("textDocument/hover", {
      textDocument: { uri: s.uri("src/cart.ts") },
      position: { line: 2, character: 12 },
    });
    expect(hoverText(hover)).toContain("**REQ-CART** — Add items to the cart");
  });
});
