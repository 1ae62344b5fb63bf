// A monorepo as a team lays it out: a root speky.yaml loading two projects in two languages,
// each with its own folder (shop/ in Python, billing/ in Go), run from inside a project's
// source folder. The manifest is found above (up to the git work tree's root, never above it,
// never outside git), and every path printed for a person opens from the folder it ran in.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startLsp } from "../support/lsp.js";
import { connect, ok } from "../support/mcp.js";
import { runSpeky, tempDir } from "../support/process.js";

function tree(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const requirements = (...ids: string[]) =>
  `kind: requirements\ncategory: functional\nrequirements:\n${ids.map((id) => `  - id: ${id}\n    long: The ${id}.\n`).join("")}`;

/** The monorepo, a git work tree (`git init`: no commit needed to find its root). */
function monorepo(dir = tempDir("speky-ts-mono-")): string {
  tree(dir, {
    "speky.yaml": "kind: project\nname: mono\nfiles: [shop/shop.yaml, billing/billing.yaml]\n",
    "shop/shop.yaml":
      "kind: project\nname: shop\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n" +
      "test_results: ['reports/*.xml', 'missing/*.xml']\n",
    "shop/specs/reqs.yaml": requirements("SHOP-1"),
    "shop/src/basket.py": "# speky:shop#SHOP-1\ndef add():\n    pass\n\n# speky:shop#SHOP-9\ndef bad():\n    pass\n",
    "shop/reports/pytest.xml": "<testsuite><testcase\n",
    "billing/billing.yaml": "kind: project\nname: billing\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.go']\n",
    "billing/specs/reqs.yaml": requirements("BILL-1"),
    "billing/src/total.go": "package billing\n\n// speky:billing#BILL-1\nfunc Total() int { return 0 }\n",
  });
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

const FOUND_ABOVE = "speky: no ./speky.yaml: using ../../speky.yaml, found above the current folder\n";

/** Each `file:line:col:` line's file, which must open from `cwd`. */
function expectPathsOpen(output: string, cwd: string): string[] {
  const files = [...output.matchAll(/^([^\s:]+):\d+(?::\d+)?: /gm)].map((m) => m[1]);
  for (const file of files) expect(existsSync(path.resolve(cwd, file)), `${file} from ${cwd}`).toBe(true);
  return files;
}

describe("the manifest above the current folder", () => {
  // speky:speky-ts#TMONO-MANIFEST-ABOVE
  it("check, scan, report, export and diff in shop/src load the root's speky.yaml, and say so in one line", () => {
    const dir = monorepo();
    const src = path.join(dir, "shop/src");
    const check = runSpeky(["check"], src);
    expect(check.stderr).toBe(FOUND_ABOVE);
    expect(check.stdout).toBe(
      "../reports/pytest.xml:2:1: error: unclosed tag: testsuite; its results are ignored\n" +
        "../shop.yaml:5:33: warning: test_results: 'missing/*.xml' matched no file\n" +
        "basket.py:5:3: error: tag speky:shop#SHOP-9 names an unknown ID 'SHOP-9'; did you mean SHOP-1?\n" +
        "2 errors, 1 warning in 7 files\n",
    );
    expect(check.status).toBe(1);
    expect(expectPathsOpen(check.stdout, src)).toHaveLength(3);
    for (const command of [["scan"], ["report", "--format", "markdown"], ["export"]]) {
      const run = runSpeky(command, src);
      expect(run.stderr, command[0]).toBe(FOUND_ABOVE);
      expect(run.status, command[0]).toBe(0);
    }
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "one"], { cwd: dir });
    const diff = runSpeky(["diff", "HEAD"], src);
    expect(diff.stderr).toBe(FOUND_ABOVE);
    expect(diff.status).toBe(0);
  });

  // speky:speky-ts#TMONO-MANIFEST-ABOVE
  it("takes the nearest speky.yaml, never one above the git work tree, and none outside git", () => {
    // A speky.yaml in the folder holding the repository: outside it, never read.
    const outer = tree(tempDir("speky-ts-outer-"), { "speky.yaml": "kind: project\nname: outer\nfiles: []\n" });
    const dir = monorepo(path.join(outer, "repo"));
    expect(runSpeky(["check"], path.join(dir, "billing/src")).stderr).toBe(FOUND_ABOVE);
    // A project's own speky.yaml is nearer than the root's.
    tree(dir, { "billing/speky.yaml": "kind: project\nname: billing\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.go']\n" });
    const nearest = runSpeky(["check"], path.join(dir, "billing/src"));
    expect(nearest).toEqual({
      status: 0,
      stdout: "0 errors, 0 warnings in 3 files\n",
      stderr: "speky: no ./speky.yaml: using ../speky.yaml, found above the current folder\n",
    });
    // At the work tree's root without a speky.yaml: the folder above is not looked at.
    rmSync(path.join(dir, "speky.yaml"));
    rmSync(path.join(dir, "billing/speky.yaml"));
    const atRoot = runSpeky(["check"], path.join(dir, "shop/src"));
    expect(atRoot.status).toBe(2);
    expect(atRoot.stderr).toContain(
      "no ./speky.yaml (nor above it, up to the git work tree's root), and no manifest (kind: project) under this folder",
    );
    // Outside git: the current folder only (the outer speky.yaml is right above billing/'s parent).
    tree(dir, { "speky.yaml": "kind: project\nname: mono\nfiles: [shop/shop.yaml, billing/billing.yaml]\n" });
    rmSync(path.join(dir, ".git"), { recursive: true });
    expect(runSpeky(["check"], path.join(dir, "shop/src")).status).toBe(2);
  });

  // speky:speky-ts#TMONO-SERVERS-ABOVE
  it("speky-mcp without PATH and the editor opened on shop/src load the root's manifest; code references carry their project", async () => {
    const dir = monorepo();
    const src = path.join(dir, "shop/src");
    const session = await connect([], { cwd: src });
    try {
      const answer = (await ok(session.client, "get_requirement", { id: "BILL-1" })) as { code_references: unknown[] };
      // speky's file (relative to the project's root), and the project it is relative to.
      expect(answer.code_references).toEqual([{ project: "billing", file: "src/total.go", line: 4, symbol: "Total" }]);
      const found = (await ok(session.client, "find_code_references", { file: "basket.py" })) as { references: { project: string }[] };
      expect(found.references.map((r) => r.project)).toEqual(["shop", "shop"]);
      expect(session.stderr()).toContain("no ./speky.yaml: using ../../speky.yaml, found above the current folder");
    } finally {
      await session.close();
    }
    const lsp = await startLsp(src);
    try {
      const status = await lsp.status((s) => s.scanned);
      expect(status.requirements).toBe(2);
      expect(status.code_references).toBe(3);
    } finally {
      await lsp.close();
    }
  });
});

describe("paths in a monorepo", () => {
  // speky:speky-ts#TMONO-PATHS-OPEN
  it("speky's MyST command names files from the current folder; scan and export JSON add each file from the repository root", () => {
    const dir = monorepo();
    const shop = path.join(dir, "shop");
    const myst = runSpeky(["../speky.yaml", "--check-only"], shop);
    expect(myst.stderr).toBe(
      "reports/pytest.xml:2:1: warning: unclosed tag: testsuite; its results are ignored\n" +
        "shop.yaml:5:33: warning: test_results: 'missing/*.xml' matched no file\n" +
        "src/basket.py:5:3: warning: tag speky:shop#SHOP-9 names an unknown ID 'SHOP-9'; did you mean SHOP-1?\n",
    );
    expect(expectPathsOpen(myst.stderr, shop)).toHaveLength(3);
    const atRoot = runSpeky(["speky.yaml", "--check-only"], dir);
    expect(expectPathsOpen(atRoot.stderr, dir)).toEqual(["shop/reports/pytest.xml", "shop/shop.yaml", "shop/src/basket.py"]);

    const where = (refs: { project: string; file: string; path?: string }[]) => refs.map((r) => `${r.project} ${r.file} ${r.path}`);
    const expected = ["billing src/total.go billing/src/total.go", "shop src/basket.py shop/src/basket.py"];
    const scan = JSON.parse(runSpeky(["scan"], path.join(shop, "src")).stdout);
    expect(where(scan.references).sort()).toEqual([...expected, expected[1]]);
    expect(scan.diagnostics.map((d: { file: string; path: string }) => `${d.file} ${d.path}`)).toEqual([
      "src/basket.py shop/src/basket.py",
    ]);
    const exported = JSON.parse(runSpeky(["export"], path.join(dir, "billing")).stdout);
    expect(where(exported.code_references).sort()).toEqual(expected);
    expect(where(exported.dangling_references)).toEqual([expected[1]]);
  });
});
