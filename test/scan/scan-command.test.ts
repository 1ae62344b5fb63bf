import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, runSpeky, SPEKY_BIN, tempDir } from "../support/process.js";

const TREE = path.join(REPO, "fixtures/check/tree");
// The one field that differs from run to run: wall time.
const withoutMs = (json: string) => json.replace(/"ms": \d+/, '"ms": 0');

const REFERENCES = [
  {
    project: "orb",
    id: "ORB-03",
    file: "src/bad.py",
    line: 6,
    column: 5,
    end_line: 8,
    tag_line: 5,
    tag_column: 3,
    symbol: "draw_orbit",
    kind: "function",
    is_test: false,
    language: "python",
  },
  {
    project: "orb",
    id: "ORB-001",
    file: "src/good.py",
    line: 2,
    column: 5,
    end_line: 3,
    tag_line: 1,
    tag_column: 3,
    symbol: "compute_orbit",
    kind: "function",
    is_test: false,
    language: "python",
  },
];

describe("speky scan", () => {
  it("prints the manifest's code references, flags dangling IDs, and is byte-identical across runs", () => {
    const first = runSpeky(["scan", "speky.yaml"], TREE);
    expect(first.status).toBe(0);
    expect(JSON.parse(withoutMs(first.stdout))).toEqual({
      version: 1,
      // speky's file, and the same file from the repository root (this repository's).
      references: REFERENCES.map((r) => ({ ...r, path: `fixtures/check/tree/${r.file}` })),
      diagnostics: [
        {
          file: "src/bad.py",
          path: "fixtures/check/tree/src/bad.py",
          line: 5,
          column: 3,
          severity: "warning",
          message: "tag speky:orb#ORB-03 names an unknown ID 'ORB-03'; did you mean ORB-003?",
        },
        {
          file: "src/bad.py",
          path: "fixtures/check/tree/src/bad.py",
          line: 7,
          column: 14,
          severity: "warning",
          message: "tag in a string literal is not a tag",
        },
      ],
      stats: { files: 2, files_with_tags: 2, tags: 2, ms: 0 },
    });
    expect(withoutMs(runSpeky(["scan", "speky.yaml"], TREE).stdout)).toBe(withoutMs(first.stdout));
  });

  it("scans arbitrary paths under --project, and writes --output", () => {
    const out = path.join(tempDir(), "refs.json");
    const run = runSpeky(["scan", "--project", "ORB", "src", "--output", out], TREE);
    expect(run).toMatchObject({ status: 0, stdout: "" });
    const json = JSON.parse(readFileSync(out, "utf8"));
    // The project is named as declared; tags match it case-insensitively.
    expect(json.references).toEqual(REFERENCES.map((r) => ({ ...r, project: "ORB" })));
    expect(json.diagnostics).toEqual([
      { file: "src/bad.py", line: 7, column: 14, severity: "warning", message: "tag in a string literal is not a tag" },
    ]);
  });

  // speky:speky-ts#TSCAN-ONE-SHOT-EXIT
  it("hands all of a large output to a reader that waits, and writes its cache, before it exits", async () => {
    // 1,500 tagged functions: about 400 KB of JSON, six times what a pipe holds.
    const count = 1500;
    const tree = tempDir();
    const cache = tempDir("speky-cache-");
    const ids = Array.from({ length: count }, (_, i) => `BIG-${String(i).padStart(4, "0")}`);
    writeFileSync(path.join(tree, "speky.yaml"), "kind: project\nname: big\nfiles: [reqs.yaml]\ncode_sources: [src.py]\n");
    writeFileSync(
      path.join(tree, "reqs.yaml"),
      `kind: requirements\ncategory: big\nrequirements:\n${ids.map((id) => `  - id: ${id}\n    long: ${id}.\n`).join("")}`,
    );
    writeFileSync(path.join(tree, "src.py"), ids.map((id, i) => `# speky:big#${id}\ndef f${i}():\n    pass\n\n`).join(""));
    const child = spawn(process.execPath, [SPEKY_BIN, "scan", "speky.yaml"], {
      cwd: tree,
      env: { ...process.env, SPEKY_CACHE_DIR: cache },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Nothing is read until the scan is blocked on a full pipe (its stderr says nothing meanwhile).
    child.stdout.pause();
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    expect(await exited).toBe(0);
    const output = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { references: { id: string }[] };
    expect(output.references.map((r) => r.id)).toEqual(ids);
    expect(readdirSync(cache).filter((name) => name.startsWith("scan-"))).toHaveLength(1);
  });

  it("exits 1 with the loader's messages when the specs are invalid", () => {
    const run = runSpeky(["scan", "speky.yaml"], path.join(REPO, "fixtures/check/bad-ref"));
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr: "reqs.yaml:8:11: error: unknown ref 'ORB-01' (no requirement or test has this ID); did you mean ORB-001?\n",
    });
  });
});
