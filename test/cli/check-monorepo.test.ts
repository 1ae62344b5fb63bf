// `speky check` on a monorepo, run as people run it: from the repository root naming a
// project's manifest, from a project's folder, in CI, with a spec error in one project, with a
// misspelled project in a tag, and with no argument at all.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startLsp } from "../support/lsp.js";
import { connect, ok } from "../support/mcp.js";
import { runSpeky, tempDir } from "../support/process.js";

function tree(files: Record<string, string>, dir = tempDir()): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const git = (dir: string, ...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });

const manifest = (name: string) => `kind: project\nname: ${name}\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n`;
const requirements = (...ids: string[]) =>
  `kind: requirements\ncategory: functional\nrequirements:\n${ids.map((id) => `  - id: ${id}\n    long: The ${id}.\n`).join("")}`;

/** Two projects laid out alike: the same displayed paths (specs/reqs.yaml, src/...) in each. */
function monorepo(): string {
  const dir = tree({
    "shop/speky.yaml": manifest("shop"),
    "shop/specs/reqs.yaml": `${requirements("SHOP-01", "SHOP-02")}    ref: [SHOP-1]\n`,
    "shop/src/basket.py": "# speky:shop#SHOP-03\ndef add():\n    pass\n",
    "cart/speky.yaml": manifest("cart"),
    "cart/specs/reqs.yaml": requirements("CART-01", "SHOP-02"),
    "cart/src/cart.py": "# speky:cart#CART-01\ndef total():\n    pass\n",
  });
  git(dir, "init", "-q");
  return dir;
}

const SHOP_FINDINGS = [
  "specs/reqs.yaml:8:11: error: unknown ref 'SHOP-1' (no requirement or test has this ID); did you mean SHOP-01?",
  "src/basket.py:1:3: error: tag speky:shop#SHOP-03 names an unknown ID 'SHOP-03'; did you mean SHOP-01?",
];

describe("speky check on a monorepo: paths", () => {
  // speky:speky-ts#TCHECK-PATHS-CWD
  it("prints text and JSON paths relative to the working directory, messages' paths too", () => {
    const dir = monorepo();
    const atRoot = runSpeky(["check", "shop/speky.yaml", "cart/speky.yaml"], dir);
    expect(atRoot.stdout).toBe(
      "cart/specs/reqs.yaml:6:5: error: duplicate ID 'SHOP-02' (first defined at shop/specs/reqs.yaml:6:5)\n" +
        SHOP_FINDINGS.map((line) => `shop/${line}\n`).join("") +
        "3 errors, 0 warnings\n",
    );
    expect(atRoot.status).toBe(1);

    // From a project's folder: its own files as they are, the other project's through '..'.
    const inShop = runSpeky(["check", "speky.yaml", "../cart/speky.yaml"], path.join(dir, "shop"));
    expect(inShop.stdout).toBe(
      "../cart/specs/reqs.yaml:6:5: error: duplicate ID 'SHOP-02' (first defined at specs/reqs.yaml:6:5)\n" +
        SHOP_FINDINGS.map((line) => `${line}\n`).join("") +
        "3 errors, 0 warnings\n",
    );

    const json = JSON.parse(runSpeky(["check", "shop/speky.yaml", "--format", "json"], dir).stdout);
    expect(json.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual([
      "shop/specs/reqs.yaml:8",
      "shop/src/basket.py:1",
    ]);
  });

  it("puts GitHub annotations on paths from the repository root, wherever it runs", () => {
    const dir = monorepo();
    const expected =
      "::error file=shop/specs/reqs.yaml,line=8,col=11::unknown ref 'SHOP-1' (no requirement or test has this ID); did you mean SHOP-01?\n" +
      "::error file=shop/src/basket.py,line=1,col=3::tag speky:shop#SHOP-03 names an unknown ID 'SHOP-03'; did you mean SHOP-01?\n" +
      "2 errors, 0 warnings\n";
    const noWorkspace = { GITHUB_WORKSPACE: "" };
    expect(runSpeky(["check", "shop/speky.yaml", "--format", "github"], dir, noWorkspace).stdout).toBe(expected);
    // From the project's folder: the git work tree is the root.
    expect(runSpeky(["check", "speky.yaml", "--format", "github"], path.join(dir, "shop"), noWorkspace).stdout).toBe(expected);
    // GITHUB_WORKSPACE wins over git (a checkout into a sub-folder of the workspace).
    const outer = path.dirname(dir);
    const fromWorkspace = runSpeky(["check", "speky.yaml", "--format", "github"], path.join(dir, "shop"), { GITHUB_WORKSPACE: outer });
    expect(fromWorkspace.stdout).toContain(`::error file=${path.basename(dir)}/shop/src/basket.py,line=1,col=3::`);
  });

  it("keeps the model's paths in scan JSON and MCP answers (relative to the manifest's root, as speky's)", async () => {
    const dir = monorepo();
    const scan = JSON.parse(runSpeky(["scan", "cart/speky.yaml"], dir).stdout);
    expect(scan.references.map((r: { file: string }) => r.file)).toEqual(["src/cart.py"]);
    const session = await connect(["cart/speky.yaml"], { cwd: dir });
    try {
      const answer = (await ok(session.client, "find_code_references", { file: "src/cart.py" })) as {
        references: { file: string; id: string }[];
      };
      expect(answer.references.map((r) => `${r.file} ${r.id}`)).toEqual(["src/cart.py CART-01"]);
    } finally {
      await session.close();
    }
  });
});

describe("speky check: a spec error does not hide the code tags' findings", () => {
  // speky:speky-ts#TCHECK-TAGS-DESPITE-ERRORS
  it("reports dangling tags beside the spec errors, but not tags naming IDs of a file that failed to load", () => {
    const dir = tree({
      "speky.yaml": manifest("shop"),
      "specs/a-reqs.yaml": requirements("REQ-01"),
      // A YAML error: REQ-02 would have been defined here.
      "specs/b-broken.yaml": "kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-02\n    long: Two: bad\n",
      "src/shop.py": "# speky:shop#REQ-02\ndef a():\n    pass\n\n# speky:shop#REQ-9\ndef b():\n    pass\n",
    });
    const run = runSpeky(["check"], dir);
    expect(run.stdout).toBe(
      "specs/b-broken.yaml:5:11: error: YAML syntax error: Nested mappings are not allowed in compact mappings\n" +
        "src/shop.py:5:3: error: tag speky:shop#REQ-9 names an unknown ID 'REQ-9'; did you mean REQ-01?\n" +
        "2 errors, 0 warnings\n",
    );
    expect(run.status).toBe(1);
  });

  it("says in one line which tags were not checked, and why", () => {
    const dir = tree({
      "shop/speky.yaml": manifest("shop"),
      "shop/specs/reqs.yaml": requirements("REQ-01"),
      "shop/src/shop.py": "# speky:shop#REQ-7\ndef a():\n    pass\n",
      // A manifest with an error of its own: its tags are not checked.
      "cart/speky.yaml": "kind: project\nname: cart\nfiles: [specs/missing.yaml]\ncode_sources: ['src/*.py']\n",
      "cart/src/cart.py": "# speky:cart#CART-7\ndef a():\n    pass\n",
    });
    const run = runSpeky(["check", "shop/speky.yaml", "cart/speky.yaml"], dir);
    expect(run.stdout).toBe(
      "cart/speky.yaml: warning: code tags of project 'cart' were not checked: this manifest has errors\n" +
        "cart/speky.yaml:3:9: error: file 'specs/missing.yaml' not found\n" +
        "shop/src/shop.py:1:3: error: tag speky:shop#REQ-7 names an unknown ID 'REQ-7'; did you mean REQ-01?\n" +
        "2 errors, 1 warning\n",
    );
    // A file that could not be read at all may define any ID: no tag can be judged.
    const unread = runSpeky(["check", "shop/speky.yaml", "-C", "gone.csv"], dir);
    expect(unread.stdout).toBe(
      "gone.csv: error: file not found\n" +
        "gone.csv: warning: code tags were not checked: gone.csv could not be read, so the IDs it defines are unknown\n" +
        "1 error, 1 warning\n",
    );
  });
});

describe("a tag for a misspelled project", () => {
  // speky:speky-ts#TSCAN-NEAR-MISS-PROJECT
  it("is a warning naming the loaded project it likely means, in check, scan and list_problems; other projects stay silent", async () => {
    const dir = tree({
      "speky.yaml": manifest("shop"),
      "specs/reqs.yaml": requirements("REQ-01"),
      "src/shop.py":
        "# speky:shpo#REQ-01\ndef a():\n    pass\n\n# speky:SHOPP#REQ-01\ndef b():\n    pass\n\n" +
        "# speky:billing#BIL-1\ndef c():\n    pass\n\n# speky:sh#REQ-01\ndef d():\n    pass\n",
    });
    const warnings = [
      "src/shop.py:1:3: warning: tag speky:shpo#REQ-01 names an unknown project 'shpo' (ignored); did you mean shop?",
      "src/shop.py:5:3: warning: tag speky:SHOPP#REQ-01 names an unknown project 'SHOPP' (ignored); did you mean shop?",
    ];
    const check = runSpeky(["check"], dir);
    expect(check.stdout).toBe(`${warnings.join("\n")}\n0 errors, 2 warnings in 3 files\n`);
    expect(check.status).toBe(0);
    expect(runSpeky(["check", "--strict"], dir).status).toBe(1);

    const scan = JSON.parse(runSpeky(["scan"], dir).stdout);
    expect(scan.diagnostics.map((d: { line: number; message: string }) => `${d.line}: ${d.message}`)).toEqual([
      "1: tag speky:shpo#REQ-01 names an unknown project 'shpo' (ignored); did you mean shop?",
      "5: tag speky:SHOPP#REQ-01 names an unknown project 'SHOPP' (ignored); did you mean shop?",
    ]);

    const session = await connect(["speky.yaml"], { cwd: dir });
    try {
      const answer = (await ok(session.client, "list_problems")) as { problems: { message: string }[] };
      expect(answer.problems.map((p) => p.message)).toEqual([
        "tag speky:shpo#REQ-01 names an unknown project 'shpo' (ignored); did you mean shop?",
        "tag speky:SHOPP#REQ-01 names an unknown project 'SHOPP' (ignored); did you mean shop?",
      ]);
    } finally {
      await session.close();
    }
  });

  it("is a warning in the editor's diagnostics of an unsaved buffer", async () => {
    const dir = tree({ "speky.yaml": manifest("shop"), "specs/reqs.yaml": requirements("REQ-01"), "src/shop.py": "" });
    const session = await startLsp(dir);
    try {
      await session.status((st) => st.scanned);
      const v = session.open("src/shop.py", "# speky:shpo#REQ-01\ndef a():\n    pass\n# speky:other#X-1\n", "python");
      const found = await session.diagnostics("src/shop.py", v, (d) => d.length > 0);
      expect(found.map((d) => [d.severity, d.range.start.line, d.range.start.character, d.range.end.character, d.message])).toEqual([
        [2, 0, 2, 19, "tag speky:shpo#REQ-01 names an unknown project 'shpo' (ignored); did you mean shop?"],
      ]);
    } finally {
      await session.close();
    }
  });

  it("is counted past a few per file", () => {
    const tags = Array.from({ length: 6 }, (_, i) => `# speky:shpo#REQ-01\ndef f${i}():\n    pass\n`).join("\n");
    const dir = tree({ "speky.yaml": manifest("shop"), "specs/reqs.yaml": requirements("REQ-01"), "src/shop.py": tags });
    const lines = runSpeky(["check"], dir).stdout.trimEnd().split("\n");
    expect(lines.filter((l) => l.includes("names an unknown project 'shpo'"))).toHaveLength(3);
    expect(lines).toContain(
      "src/shop.py:13:3: warning: 3 more tags in this file of the unknown project 'shpo' (ignored); did you mean shop?",
    );
  });
});

describe("no argument", () => {
  // speky:speky-ts#TCHECK-DEFAULT-MANIFEST
  it("check, report and scan load ./speky.yaml", () => {
    const dir = tree({
      "speky.yaml": manifest("shop"),
      "specs/reqs.yaml": requirements("REQ-01"),
      "src/shop.py": "# speky:shop#REQ-01\ndef a():\n    pass\n",
    });
    const check = runSpeky(["check"], dir);
    expect(check).toEqual({ status: 0, stdout: "0 errors, 0 warnings in 3 files\n", stderr: "" });
    expect(JSON.parse(runSpeky(["scan"], dir).stdout).references).toHaveLength(1);
    const report = runSpeky(["report", "--format", "markdown"], dir);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain("## Traceability report: shop\n");
  });

  it("else load the top-level manifests found below, as the editor finds them, and say which", () => {
    const dir = tree({
      "shop/speky.yaml": "kind: project\nname: shop\nfiles: [specs/*.yaml, sub/speky.yaml]\n",
      "shop/specs/reqs.yaml": requirements("REQ-01"),
      // Loaded by shop/speky.yaml: not a top-level manifest.
      "shop/sub/speky.yaml": "kind: project\nname: sub\nfiles: []\n",
      "cart/project.yaml": manifest("cart"),
      "cart/specs/reqs.yaml": requirements("CART-01"),
      "cart/src/cart.py": "# speky:cart#CART-02\ndef a():\n    pass\n",
    });
    const check = runSpeky(["check"], dir);
    expect(check.stderr).toBe("speky: no ./speky.yaml: using cart/project.yaml, shop/speky.yaml\n");
    expect(check.stdout).toBe(
      "cart/src/cart.py:1:3: error: tag speky:cart#CART-02 names an unknown ID 'CART-02'; did you mean CART-01?\n" +
        "1 error, 0 warnings in 6 files\n",
    );
    const scan = runSpeky(["scan", "--project", "cart"], path.join(dir, "cart"));
    expect(JSON.parse(scan.stdout).references.map((r: { file: string }) => r.file)).toEqual(["src/cart.py"]);
  });

  it("reads a folder named as PATH the same way", () => {
    const dir = tree({
      "shop/speky.yaml": manifest("shop"),
      "shop/specs/reqs.yaml": requirements("REQ-01"),
      "cart/project.yaml": manifest("cart"),
      "cart/specs/reqs.yaml": requirements("CART-01"),
      "shop/src/a.py": "# speky:shop#REQ-01\ndef a():\n    pass\n",
      "cart/src/c.py": "# speky:cart#CART-01\ndef c():\n    pass\n",
      "empty/README.md": "no manifest\n",
    });
    expect(runSpeky(["check", "shop"], dir)).toEqual({ status: 0, stdout: "0 errors, 0 warnings in 3 files\n", stderr: "" });
    const both = runSpeky(["check", "shop/", "cart"], dir);
    expect(both.stdout).toBe("0 errors, 0 warnings in 6 files\n");
    expect(both.stderr).toBe("speky: no cart/speky.yaml: using cart/project.yaml\n");
    const none = runSpeky(["report", "empty"], dir);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(
      "speky: no empty/speky.yaml, and no manifest (kind: project) under empty; name one: speky report path/to/manifest.yaml\nTry 'speky --help'.\n",
    );
  });

  it("exits 2 naming what it looked for when there is no manifest", () => {
    const dir = tree({ "README.md": "nothing here\n" });
    for (const command of ["check", "report", "scan"]) {
      const run = runSpeky([command], dir);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        "speky: no manifest named, no ./speky.yaml, and no manifest (kind: project) under this folder; " +
          `name one: speky ${command} path/to/manifest.yaml\nTry 'speky --help'.\n`,
      );
    }
  });
});
