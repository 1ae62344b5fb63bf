// `speky lsp` driven as an editor drives it: the built binary over stdio, a real LSP client
// connection, documents opened and edited with didOpen/didChange, on a private copy of
// fixtures/lsp. Waits are on the server's notifications (diagnostics, $/speky/status).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeLens, CompletionList, Hover, Location, SymbolInformation } from "vscode-languageserver-protocol";
import { type LspSession, startLsp } from "../support/lsp.js";
import { copyFixture, runSpeky } from "../support/process.js";

const ERROR = 1;
const WARNING = 2;

async function ready(session: LspSession) {
  return session.status((s) => s.state === "ready" && s.scanned);
}

function request<T>(s: LspSession, method: string, rel: string, line: number, character: number, extra: object = {}): Promise<T> {
  return s.connection.sendRequest(method, { textDocument: { uri: s.uri(rel) }, position: { line, character }, ...extra }) as Promise<T>;
}

const hoverText = (h: Hover | null) => (h && typeof h.contents === "object" && "value" in h.contents ? h.contents.value : "");
const rel = (s: LspSession, uri: string) => path.relative(s.dir, new URL(uri).pathname).split(path.sep).join("/");
const where = (s: LspSession, l: Location) => `${rel(s, l.uri)}:${l.range.start.line}:${l.range.start.character}-${l.range.end.character}`;

// speky:speky-ts#TEST-LSP-CLI
describe("speky lsp command", () => {
  it("prints its usage with --help and is listed by speky --help", () => {
    const help = runSpeky(["lsp", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("speky lsp [MANIFEST...] [--stdio]");
    expect(runSpeky(["--help"]).stdout).toContain("speky lsp");
  });

  it("refuses an unknown option with a usage error", () => {
    const r = runSpeky(["lsp", "--tcp"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option '--tcp'");
  });
});

describe("speky lsp on a fixture tree (zero configuration)", () => {
  let s: LspSession;
  beforeAll(async () => {
    s = await startLsp(copyFixture("lsp"));
    await ready(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  // speky:speky-ts#TEST-LSP-DISCOVER
  it("finds the top-level manifests of the workspace folder, speky.yaml first, not sub-projects", async () => {
    const status = await ready(s);
    expect(status.manifests.map((m) => rel(s, `file://${m}`))).toEqual(["speky.yaml", "alt.yaml"]);
    expect(status).toMatchObject({ requirements: 5, tests: 2, code_references: 3 });
    expect(s.initialize.capabilities).toMatchObject({
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      codeLensProvider: { resolveProvider: false },
      workspaceSymbolProvider: true,
    });
  });

  // speky:speky-ts#TEST-LSP-HOVER
  it("hovers a requirement tag: title, text, category, tags, tests, coverage, code references", async () => {
    s.open("src/cart.ts", undefined, "typescript");
    const hover = await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12);
    expect(hoverText(hover)).toBe(
      [
        "**REQ-CART** — Add items to the cart",
        "",
        "*requirement* · category *functional*",
        "",
        "The shopper adds an item to the cart and sees the new total.",
        "",
        "Tags: cart, ui",
        "",
        "Tests: 1 test (1 automated): TST-CART (automated)",
        "",
        "Coverage: every test automated",
        "",
        "Code references: 1",
      ].join("\n"),
    );
    expect(hover.range).toEqual({ start: { line: 2, character: 3 }, end: { line: 2, character: 22 } });
  });

  it("hovers a test tag: steps and the requirements it validates; a manual test plan's coverage", async () => {
    s.open("tests/test_cart.py", undefined, "python");
    const test = hoverText(await request<Hover>(s, "textDocument/hover", "tests/test_cart.py", 0, 10));
    expect(test).toContain("**TST-CART** — Add an item");
    expect(test).toContain("*test* · category *functional*");
    expect(test).toContain("Steps: 2 · validates REQ-CART");
    expect(test).toContain("Code references: 1");
    const pay = hoverText(await request<Hover>(s, "textDocument/hover", "src/cart.ts", 7, 25));
    expect(pay).toContain("Tests: 1 test (0 automated): TST-PAY-MANUAL (manual)");
    expect(pay).toContain("Coverage: every test manual");
  });

  it("hovers an unknown ID with the closest one, and nothing off a tag", async () => {
    s.open("src/typo.ts", "// speky:shop#REQ-CRAT\nexport const x = 1;\n", "typescript");
    const typo = await request<Hover>(s, "textDocument/hover", "src/typo.ts", 0, 16);
    expect(hoverText(typo)).toBe("**REQ-CRAT**: unknown ID; did you mean **REQ-CART**?");
    expect(await request<Hover | null>(s, "textDocument/hover", "src/typo.ts", 1, 5)).toBeNull();
  });

  it("shows spec text as text: a hostile spec's image, HTML and link are escaped, never markup", async () => {
    s.open("src/alt.ts", "// speky:alt#ALT-1\nexport const alt = 1;\n", "typescript");
    const hover = hoverText(await request<Hover>(s, "textDocument/hover", "src/alt.ts", 0, 14));
    expect(hover).toContain(
      "\\!\\[pixel\\]\\(https\\://example\\.invalid/p\\.png\\) \\<img src=x onerror=alert\\(1\\)\\> \\[link\\]\\(command:x\\)",
    );
    expect(hover).not.toMatch(/(^|[^\\])(!\[|<img|\[link\])/);
  });

  // speky:speky-ts#TEST-LSP-DEFINITION
  it("goes from a tag to the id line of its spec, YAML and TOML, at the exact column", async () => {
    const yaml = await request<Location>(s, "textDocument/definition", "src/cart.ts", 2, 18);
    expect(where(s, yaml)).toBe("specs/requirements.yaml:3:8-16");
    s.open("src/ship.ts", "// speky:shop#REQ-SHIP\nexport function ship(): void {}\n", "typescript");
    const toml = await request<Location>(s, "textDocument/definition", "src/ship.ts", 0, 15);
    expect(where(s, toml)).toBe("specs/extra.toml:4:6-14");
    expect(readFileSync(path.join(s.dir, "specs/extra.toml"), "utf8").split("\n")[4].slice(6, 14)).toBe("REQ-SHIP");
  });

  // speky:speky-ts#TEST-LSP-SOURCE-DIAGNOSTICS
  it("diagnoses an unsaved buffer as it is typed, and clears the diagnostics once fixed", async () => {
    const clean = "// speky:shop#REQ-CART\nexport function total(): number {\n  return 0;\n}\n";
    const v1 = s.open("src/total.ts", clean, "typescript");
    expect(await s.diagnostics("src/total.ts", v1)).toEqual([]);
    const broken =
      "// speky:shop#REQ-CARTT\nexport function total(): number {\n  // speky:shop\n  return 'speky:shop#REQ-PAY'.length;\n}\n";
    const v2 = s.change("src/total.ts", broken);
    const found = await s.diagnostics("src/total.ts", v2, (d) => d.length > 0);
    expect(found.map((d) => [d.severity, d.range.start.line, d.range.start.character, d.range.end.character, d.message])).toEqual([
      [ERROR, 0, 3, 23, "tag speky:shop#REQ-CARTT names an unknown ID 'REQ-CARTT'; did you mean REQ-CART?"],
      [WARNING, 2, 5, 11, 'malformed tag: expected <project>#<ID> after "speky:"'],
      [WARNING, 3, 10, 28, "tag in a string literal is not a tag"],
    ]);
    // Nothing was saved: the file on disk never had these tags.
    const v3 = s.change("src/total.ts", clean);
    expect(await s.diagnostics("src/total.ts", v3)).toEqual([]);
  });

  it("counts the tags of unsaved buffers in hover, in place of what the scan found in them", async () => {
    const v = s.change(
      "src/total.ts",
      "// speky:shop#REQ-CART\nexport function total(): number {\n  return 0;\n}\n// speky:shop#REQ-CART\n",
    );
    await s.diagnostics("src/total.ts", v);
    const hover = hoverText(await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12));
    expect(hover).toContain("Code references: 3");
  });

  // speky:speky-ts#TEST-LSP-COMPLETION
  it("completes project names after speky: and IDs after speky:<project>#, in comments only", async () => {
    const text = "// speky:\n// speky:shop#REQ-\nconst s = 'speky:shop#';\n";
    s.open("src/complete.ts", text, "typescript");
    const projects = await request<CompletionList>(s, "textDocument/completion", "src/complete.ts", 0, 9);
    expect(projects.items.map((i) => [i.label, i.textEdit && "newText" in i.textEdit ? i.textEdit.newText : null])).toEqual([
      ["shop", "shop#"],
      ["shopsub", "shopsub#"],
      ["alt", "alt#"],
    ]);
    const ids = await request<CompletionList>(s, "textDocument/completion", "src/complete.ts", 1, 18);
    expect(ids.items.map((i) => [i.label, i.detail])).toEqual([
      ["REQ-CART", "Add items to the cart"],
      ["REQ-PAY", "Pay for the cart"],
      ["REQ-SHIP", "Ship the order"],
    ]);
    expect(ids.items[0].textEdit).toEqual({
      range: { start: { line: 1, character: 14 }, end: { line: 1, character: 18 } },
      newText: "REQ-CART",
    });
    const inString = await request<CompletionList | null>(s, "textDocument/completion", "src/complete.ts", 2, 22);
    expect(inString).toBeNull();
  });

  // speky:speky-ts#TEST-LSP-SPEC-FILES
  it("lists the references of an ID from its spec: code tags, tests, requirements, comments", async () => {
    s.open("specs/requirements.yaml", undefined, "yaml");
    const cart = await request<Location[]>(s, "textDocument/references", "specs/requirements.yaml", 3, 10, {
      context: { includeDeclaration: true },
    });
    expect(cart.map((l) => where(s, l)).sort()).toEqual(
      [
        "specs/requirements.yaml:3:8-16",
        "specs/requirements.yaml:10:10-18",
        "specs/tests.yaml:7:8-16",
        "src/cart.ts:2:3-22",
        "src/total.ts:0:3-22",
        "src/total.ts:4:3-22",
      ].sort(),
    );
    const pay = await request<Location[]>(s, "textDocument/references", "specs/requirements.yaml", 7, 10, {
      context: { includeDeclaration: false },
    });
    expect(pay.map((l) => where(s, l)).sort()).toEqual(
      ["specs/comments.yaml:2:11-18", "specs/extra.toml:7:8-15", "specs/tests.yaml:15:10-17", "src/cart.ts:7:14-32"].sort(),
    );
  });

  it("hovers and goes to definition from IDs in ref, prereq and about", async () => {
    s.open("specs/tests.yaml", undefined, "yaml");
    const ref = hoverText(await request<Hover>(s, "textDocument/hover", "specs/tests.yaml", 7, 10));
    expect(ref).toContain("**REQ-CART** — Add items to the cart");
    const prereq = await request<Location>(s, "textDocument/definition", "specs/tests.yaml", 16, 14);
    expect(where(s, prereq)).toBe("specs/tests.yaml:3:8-16");
    s.open("specs/comments.yaml", undefined, "yaml");
    const about = await request<Location>(s, "textDocument/definition", "specs/comments.yaml", 2, 13);
    expect(where(s, about)).toBe("specs/requirements.yaml:7:8-15");
    expect(hoverText(await request<Hover>(s, "textDocument/hover", "specs/comments.yaml", 2, 13))).toContain(
      "**REQ-PAY** — Pay for the cart",
    );
  });

  // speky:speky-ts#TEST-LSP-SPEC-DIAGNOSTICS
  it("reports the loader's errors of an unsaved spec buffer at their line and column, then clears them", async () => {
    const original = readFileSync(path.join(s.dir, "specs/tests.yaml"), "utf8");
    const broken = original
      .replace("      - REQ-CART\n", "      - REQ-CARD\n")
      .replace("  - id: TST-PAY-MANUAL\n", "  - id: REQ-PAY\n    owner: Ana\n")
      .replace("prereq: [TST-CART]", "prereq: [REQ-CART]");
    const v = s.change("specs/tests.yaml", broken);
    const found = await s.diagnostics("specs/tests.yaml", v, (d) => d.length > 0);
    // The same file on disk, checked by `speky check`, gives the same messages at the same places.
    const expected = checkMessages(s.dir, "specs/tests.yaml", broken);
    expect(
      found.map(
        (d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity === ERROR ? "error" : "warning"}: ${d.message}`,
      ),
    ).toEqual(expected);
    expect(expected.length).toBe(4);
    const fixed = s.change("specs/tests.yaml", original);
    expect(await s.diagnostics("specs/tests.yaml", fixed)).toEqual([]);
  });

  it("reports the errors of an unsaved comments file and manifest too (a whole load with the buffers)", async () => {
    const comments = readFileSync(path.join(s.dir, "specs/comments.yaml"), "utf8");
    const badComment = comments.replace("about: REQ-PAY", "about: REQ-PAYY");
    const v = s.open("specs/comments.yaml", badComment, "yaml");
    const found = await s.diagnostics("specs/comments.yaml", v, (d) => d.length > 0);
    expect(found.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`)).toEqual(
      checkMessages(s.dir, "specs/comments.yaml", badComment).map((m) => m.replace(": error:", ":")),
    );
    expect(await s.diagnostics("specs/comments.yaml", s.change("specs/comments.yaml", comments))).toEqual([]);
    const manifest = readFileSync(path.join(s.dir, "speky.yaml"), "utf8");
    const badManifest = manifest.replace("  - specs/*.toml\n", "  - specs/*.tml\n");
    const m = s.open("speky.yaml", badManifest, "yaml");
    const warned = await s.diagnostics("speky.yaml", m, (d) => d.length > 0);
    expect(warned.map((d) => [d.severity, d.range.start.line, d.message])).toEqual([[WARNING, 4, "'specs/*.tml' matched no file"]]);
    expect(await s.diagnostics("speky.yaml", s.change("speky.yaml", manifest))).toEqual([]);
  });

  it("completes IDs in ref, prereq and about of spec buffers", async () => {
    const original = readFileSync(path.join(s.dir, "specs/tests.yaml"), "utf8");
    const text = original.replace("      - REQ-CART\n", "      - REQ-CART\n      - REQ-P\n");
    s.change("specs/tests.yaml", text);
    const ref = await request<CompletionList>(s, "textDocument/completion", "specs/tests.yaml", 8, 13);
    expect(ref.items.map((i) => i.label)).toEqual(["REQ-PAY"]);
    const flow = text.replace("prereq: [TST-CART]", "prereq: [TST-CART, T]");
    s.change("specs/tests.yaml", flow);
    const prereq = await request<CompletionList>(s, "textDocument/completion", "specs/tests.yaml", 17, 24);
    expect(prereq.items.map((i) => i.label)).toEqual(["TST-CART", "TST-PAY-MANUAL"]);
    const notAnId = await request<CompletionList | null>(s, "textDocument/completion", "specs/tests.yaml", 4, 10);
    expect(notAnId).toBeNull();
    s.change("specs/tests.yaml", original);
  });

  // speky:speky-ts#TEST-LSP-LENS
  it("shows a code lens above each requirement with its tests and code references", async () => {
    const lenses = await s.connection.sendRequest<CodeLens[]>("textDocument/codeLens", {
      textDocument: { uri: s.uri("specs/requirements.yaml") },
    });
    expect(lenses.map((l) => [l.range.start.line, l.command?.title])).toEqual([
      [3, "1 test (1 automated) · 3 code references"],
      [7, "1 test (0 automated) · 1 code reference"],
    ]);
  });

  // speky:speky-ts#TEST-LSP-SYMBOLS
  it("finds every requirement and test by ID and title in workspace symbols", async () => {
    const found = await s.connection.sendRequest<SymbolInformation[]>("workspace/symbol", { query: "cart" });
    expect(found.map((f) => [f.name, where(s, f.location)])).toEqual([
      ["REQ-CART: Add items to the cart", "specs/requirements.yaml:3:8-16"],
      ["REQ-PAY: Pay for the cart", "specs/requirements.yaml:7:8-15"],
      ["TST-CART: Add an item", "specs/tests.yaml:3:8-16"],
    ]);
    const all = await s.connection.sendRequest<SymbolInformation[]>("workspace/symbol", { query: "" });
    expect(all.length).toBe(7);
  });

  // speky:speky-ts#TEST-LSP-LIVE
  it("follows a spec edited on disk: hover shows the new text", async () => {
    await ready(s);
    const file = path.join(s.dir, "specs/requirements.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("short: Add items to the cart", "short: Put items in the basket"));
    // Asked again until a reload serves it (another reload may come first: generations only tell that one came).
    const edited = "**REQ-CART** — Put items in the basket";
    let hover = "";
    for (let tries = 0; tries < 600 && !hover.includes(edited); tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      hover = hoverText(await request<Hover>(s, "textDocument/hover", "src/cart.ts", 2, 12));
    }
    expect(hover).toContain(edited);
  });
});

/** `speky check` on a copy of the tree where `file` holds `text`, as "line:col: severity: message". */
function checkMessages(_dir: string, file: string, text: string): string[] {
  const copy = copyFixture("lsp");
  writeFileSync(path.join(copy, file), text);
  const r = runSpeky(["check", "speky.yaml", "--format", "json"], copy);
  const report = JSON.parse(r.stdout) as { findings: { file: string; line: number; column: number; severity: string; message: string }[] };
  return report.findings.filter((d) => d.file === file).map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.message}`);
}

describe("which manifests speky lsp serves", () => {
  // speky:speky-ts#TEST-LSP-PRECEDENCE
  it("takes initializationOptions.manifests over discovery, and arguments over both", async () => {
    const dir = copyFixture("lsp");
    const byOptions = await startLsp(dir, { initializationOptions: { manifests: ["alt.yaml"] } });
    const a = await byOptions.status((st) => st.state === "ready");
    await byOptions.close();
    expect(a.manifests).toEqual([path.join(dir, "alt.yaml")]);
    expect(a.requirements).toBe(1);
    const byArgs = await startLsp(dir, { args: ["speky.yaml"], initializationOptions: { manifests: ["alt.yaml"] } });
    const b = await byArgs.status((st) => st.state === "ready");
    await byArgs.close();
    expect(b.manifests).toEqual([path.join(dir, "speky.yaml")]);
    expect(b.requirements).toBe(4);
  });

  it("says so when the workspace has no manifest, and answers requests with nothing", async () => {
    const dir = copyFixture("lsp");
    const empty = path.join(dir, "src");
    const session = await startLsp(dir, { folder: empty });
    const status = await session.status((st) => st.state !== "loading");
    expect(status).toMatchObject({ state: "no-manifest", manifests: [] });
    session.open("src/cart.ts", undefined, "typescript");
    expect(await request<Hover | null>(session, "textDocument/hover", "src/cart.ts", 2, 12)).toBeNull();
    await session.close();
  });
});
