// `speky lsp` asked before its first load is done, as an editor opened at a tag asks: the
// built binary over stdio, requests sent right after `initialized` (before any status), and
// the background scan held after its walk by the test hook SPEKY_LSP_HOLD_SCAN (the scan
// waits until the named file exists), so that every state is reached by what the test does.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Hover, Location } from "vscode-languageserver-protocol";
import { type LspSession, type StartOptions, startLsp } from "../support/lsp.js";
import { copyFixture } from "../support/process.js";

const sessions: LspSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

async function start(dir: string, options: StartOptions = {}): Promise<LspSession> {
  const session = await startLsp(dir, options);
  sessions.push(session);
  return session;
}

function request<T>(s: LspSession, method: string, rel: string, line: number, character: number, extra: object = {}): Promise<T> {
  return s.connection.sendRequest(method, { textDocument: { uri: s.uri(rel) }, position: { line, character }, ...extra }) as Promise<T>;
}

const hoverText = (h: Hover | null) => (h && typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "");
const rel = (s: LspSession, uri: string) => path.relative(s.dir, new URL(uri).pathname).split(path.sep).join("/");
const where = (s: LspSession, l: Location) => `${rel(s, l.uri)}:${l.range.start.line}:${l.range.start.character}-${l.range.end.character}`;

/** A copy of fixtures/lsp whose server holds its scan after the walk until `release`. */
async function held(env: NodeJS.ProcessEnv = {}, options: StartOptions = {}) {
  const dir = copyFixture("lsp");
  const gate = path.join(dir, "release-the-scan");
  const s = await start(dir, { ...options, env: { SPEKY_LSP_HOLD_SCAN: gate, ...env } });
  return { s, release: () => writeFileSync(gate, "") };
}

describe("speky lsp before its first load is done", () => {
  // speky:speky-ts#TEST-LSP-FIRST-LOAD
  it("answers hover, definition and references sent right after initialized with the loaded model", async () => {
    const s = await start(copyFixture("lsp"));
    s.open("src/cart.ts", undefined, "typescript");
    const [hover, definition, references] = await Promise.all([
      request<Hover | null>(s, "textDocument/hover", "src/cart.ts", 2, 12),
      request<Location | null>(s, "textDocument/definition", "src/cart.ts", 2, 18),
      request<Location[]>(s, "textDocument/references", "src/cart.ts", 2, 12, { context: { includeDeclaration: true } }),
    ]);
    expect(hoverText(hover)).toContain("**REQ-CART** — Add items to the cart");
    expect(hoverText(hover)).toContain("Tests: 1 test (1 automated): TST-CART (automated)");
    expect(hoverText(hover)).toMatch(/Code references: 1$/);
    expect(definition && where(s, definition)).toBe("specs/requirements.yaml:3:8-16");
    expect(references.map((l) => where(s, l)).sort()).toEqual(
      ["specs/requirements.yaml:3:8-16", "specs/requirements.yaml:10:10-18", "specs/tests.yaml:7:8-16", "src/cart.ts:2:3-22"].sort(),
    );
  });

  it("lets a request that needs code references wait for the scan, then answers with them", async () => {
    const { s, release } = await held();
    const specs = await s.status((st) => st.state === "ready");
    expect(specs.scanned).toBe(false);
    s.open("src/cart.ts", undefined, "typescript");
    // Definition needs the specs only: answered while the scan is held.
    const definition = await request<Location>(s, "textDocument/definition", "src/cart.ts", 2, 18);
    expect(where(s, definition)).toBe("specs/requirements.yaml:3:8-16");
    const hover = request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12);
    release();
    // Only the scan knows of the tag: an answer given while it was held would say "0 so far".
    expect(hoverText(await hover)).toMatch(/Code references: 1$/);
  });

  it("answers with what is known after its bound, and says that the scan is not done", async () => {
    const { s, release } = await held({ SPEKY_LSP_WAIT_MS: "0" }, { window: { workDoneProgress: true } });
    // Held after its walk: the scan knows how many files it has to read.
    await s.progress((v) => v.message === "scanning the code: 0 of 2 files");
    s.open("src/cart.ts", undefined, "typescript");
    const partial = hoverText(await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12));
    expect(partial).toContain("**REQ-CART** — Add items to the cart");
    expect(partial.split("\n").slice(-3)).toEqual([
      "Code references: 0 so far",
      "",
      "*scan in progress: 0 of 2 files: code references and automated tests are not all known yet*",
    ]);
    release();
    await s.status((st) => st.scanned);
    expect(hoverText(await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12))).toMatch(/Code references: 1$/);
  });

  it("answers at once with nothing when the first load fails or finds no manifest", async () => {
    const broken = copyFixture("lsp");
    const file = path.join(broken, "specs/requirements.yaml");
    writeFileSync(file, "kind: requirements\nrequirements:\n  - id: [\n");
    const failed = await start(broken);
    failed.open("src/cart.ts", undefined, "typescript");
    expect(await request<Hover | null>(failed, "textDocument/hover", "src/cart.ts", 2, 12)).toBeNull();
    expect((await failed.status((st) => st.state !== "loading")).state).toBe("failed");
    const dir = copyFixture("lsp");
    const none = await start(dir, { folder: path.join(dir, "src") });
    none.open("src/cart.ts", undefined, "typescript");
    expect(await request<Hover | null>(none, "textDocument/hover", "src/cart.ts", 2, 12)).toBeNull();
    expect((await none.status((st) => st.state !== "loading")).state).toBe("no-manifest");
  });
});

describe("the first load's progress", () => {
  // speky:speky-ts#TEST-LSP-PROGRESS
  it("goes to a client that supports it as work-done progress: created, begun, reported, ended", async () => {
    const { s, release } = await held({}, { window: { workDoneProgress: true } });
    s.open("src/cart.ts", undefined, "typescript");
    // The hover answers once the scan is done: every progress message before its end is then sent.
    const hover = request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12);
    const scanning = await s.progress((v) => v.kind === "report");
    expect(scanning.map((p) => p.value)).toEqual([
      { kind: "begin", title: "speky", message: "loading the specification", percentage: 0, cancellable: false },
      { kind: "report", message: "5 requirements, 2 tests; scanning the code", percentage: 0 },
    ]);
    release();
    const all = await s.progress((v) => v.kind === "end");
    await hover;
    expect(s.createdProgress).toEqual(["speky/load"]);
    expect(new Set(all.map((p) => p.token))).toEqual(new Set(["speky/load"]));
    const values = all.map((p) => p.value);
    expect(values.at(-1)).toEqual({ kind: "end", message: "5 requirements, 2 tests, 3 code references" });
    const percentages = values.map((v) => v.percentage).filter((p) => p !== undefined);
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(percentages.at(-1)).toBe(100);
    expect(values.filter((v) => v.kind === "begin")).toHaveLength(1);
  });

  it("ends with why when the specification does not load", async () => {
    const dir = copyFixture("lsp");
    const file = path.join(dir, "specs/requirements.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("ref: [REQ-CART]", "ref: [REQ-CARTS]"));
    const s = await start(dir, { window: { workDoneProgress: true } });
    const all = await s.progress((v) => v.kind === "end");
    expect(all.at(-1)?.value).toEqual({ kind: "end", message: "the specification does not load (1 error)" });
  });

  it("is not sent to a client without the capability", async () => {
    const s = await start(copyFixture("lsp"));
    await s.status((st) => st.scanned);
    s.open("src/cart.ts", undefined, "typescript");
    // A round trip after the end of the load: any progress of it would have arrived before.
    await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12);
    expect(s.createdProgress).toEqual([]);
    expect(await Promise.race([s.progress(() => true), Promise.resolve("none")])).toBe("none");
  });
});
