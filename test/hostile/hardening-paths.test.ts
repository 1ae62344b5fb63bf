// Paths: every path we display is relative (to its manifest root, with ../ where a glob reaches
// outside it; speky check's to the working directory), never absolute, in every output (loader,
// scan, check, MCP tools);
// and the MCP tools answer from the model, never opening a path that a client sends.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpecs } from "../../src/loader/load.js";
import { loadModel } from "../../src/model/load-model.js";
import { call, connect, MCP_FIXTURE, type Session } from "../support/mcp.js";
import { REPO, runSpeky, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-hardening-paths-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(rel: string, content: string): string {
  const file = path.join(scratch, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Every string under a key that names a path, anywhere in a JSON value. */
function displayedPaths(value: unknown, key = ""): string[] {
  if (typeof value === "string") return ["file", "source_file", "path"].includes(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => displayedPaths(v, key));
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([k, v]) => displayedPaths(v, k));
  return [];
}

/** No string anywhere (links aside) may reveal where the files sit on this machine. */
function expectNoAbsolutePath(value: unknown, label: string): void {
  const paths = displayedPaths(value);
  expect(paths.length, `${label}: some paths to check`).toBeGreaterThan(0);
  for (const p of paths) {
    expect(path.isAbsolute(p), `${label}: ${p}`).toBe(false);
    expect(p, label).not.toMatch(/\\/);
  }
  const text = JSON.stringify(value);
  for (const where of [REPO, scratch, path.dirname(scratch)]) expect(text.includes(where), `${label} mentions ${where}`).toBe(false);
}

// A project whose globs reach outside its root: specs and code in sibling folders, outside the
// confinement boundary too (the tree is trusted here: --allow-outside).
//   proj/speky.yaml           files: ../shared/*.yaml, specs/*.yaml; code: ../lib/**/*.py, src/*.py
//   proj/sub/sub.yaml         a sub-project rooted one level up (root_directory: ..)
const manifest = write(
  "proj/speky.yaml",
  `${[
    "kind: project",
    "name: out",
    "files: [../shared/*.yaml, specs/*.yaml, sub/sub.yaml]",
    "code_sources: [../lib/**/*.py, src/*.py]",
    "coverage_categories: [c]",
  ].join("\n")}\n`,
);
write("shared/reqs.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: SHARED\n    long: x\n");
write("proj/specs/reqs.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: OWN\n    long: x\n    ref: [SHARED]\n");
write("proj/specs/tests.yaml", "kind: tests\ncategory: c\ntests:\n  - id: T-OWN\n    long: x\n    ref: [OWN]\n    steps: [{action: a}]\n");
write("proj/sub/sub.yaml", "kind: project\nname: sub\nroot_directory: ..\nfiles: [subspecs/*.yaml]\ncode_sources: [../lib/*.py]\n");
write("proj/subspecs/r.yaml", "kind: requirements\ncategory: c\nrequirements:\n  - id: SUBR\n    long: x\n");
write("lib/deep/outside.py", `# ${T}out#SHARED\ndef outside():\n    pass\n`);
write("lib/both.py", `# ${T}sub#SUBR\n# ${T}out#OWN\ndef both():\n    pass\n\nx = "${T}out#IN-STRING"\n# ${T}out#DANGLING\n`);
write("proj/src/inside.py", `# ${T}out#T-OWN\ndef test_inside():\n    pass\n`);
const relManifest = path.relative(REPO, manifest);

describe("displayed paths", () => {
  it("are relative to the manifest root in the loaded specs, with ../ outside it", async () => {
    const { specs, diagnostics } = await loadSpecs(["speky.yaml"], { cwd: path.join(scratch, "proj"), allowOutside: true });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const files = Object.fromEntries([...specs!.requirements, ...specs!.tests].map((i) => [i.id, [i.source_file, i.loc.file]]));
    expect(files).toEqual({
      SHARED: ["../shared/reqs.yaml", "../shared/reqs.yaml"],
      OWN: ["specs/reqs.yaml", "specs/reqs.yaml"],
      "T-OWN": ["specs/tests.yaml", "specs/tests.yaml"],
      // The sub-project's root is proj/, one level above its manifest.
      SUBR: ["subspecs/r.yaml", "subspecs/r.yaml"],
    });
  });

  it("are relative to the root of the manifest whose name a tag uses, in the model", async () => {
    const { model } = await loadModel(["speky.yaml"], { cwd: path.join(scratch, "proj"), cache: false, allowOutside: true });
    expect(model!.codeReferences.map((r) => [r.project, r.id, r.file])).toEqual([
      ["out", "OWN", "../lib/both.py"],
      ["sub", "SUBR", "../lib/both.py"],
      ["out", "DANGLING", "../lib/both.py"],
      ["out", "SHARED", "../lib/deep/outside.py"],
      ["out", "T-OWN", "src/inside.py"],
    ]);
    expectNoAbsolutePath({ refs: model!.codeReferences, diagnostics: model!.scanDiagnostics }, "model");
  });

  it("are never absolute in the outputs of speky scan and speky check over the fixture trees", () => {
    // speky check names files relative to the working directory (the project's folder here: a
    // path from elsewhere would climb to it through the folders above, by design).
    const proj = path.dirname(manifest);
    const runs: [string, string[], string][] = [
      ["scan mcp", ["scan", "--no-cache", MCP_FIXTURE], REPO],
      ["scan check tree", ["scan", "--no-cache", "fixtures/check/tree/speky.yaml"], REPO],
      ["scan outside", ["scan", "--no-cache", "--allow-outside", relManifest], REPO],
      ["check outside", ["check", "--no-cache", "--allow-outside", "--format", "json", "speky.yaml"], proj],
      ["check check tree", ["check", "--no-cache", "--format", "json", "fixtures/check/tree/speky.yaml"], REPO],
      ["check bad ref", ["check", "--no-cache", "--format", "json", "fixtures/check/bad-ref/speky.yaml"], REPO],
    ];
    for (const [label, args, cwd] of runs) {
      const run = runSpeky(args, cwd);
      expect(run.stdout, `${label}: ${run.stderr}`).not.toBe("");
      expectNoAbsolutePath(JSON.parse(run.stdout), label);
    }
    // Text and annotation formats print the same paths.
    const text =
      runSpeky(["check", "--no-cache", "--allow-outside", "speky.yaml"], proj).stdout +
      runSpeky(["check", "--no-cache", "--allow-outside", "--format", "github", "speky.yaml"], proj).stdout;
    expect(text).toContain("../lib/both.py");
    for (const where of [REPO, scratch]) expect(text.includes(where)).toBe(false);
  });

  it("are never absolute in the answers of the MCP tools", async () => {
    for (const args of [[MCP_FIXTURE], ["--allow-outside", relManifest]]) {
      const session = await connect(args);
      try {
        const { structured: ids } = await call(session.client, "list_all_ids");
        const { requirements, tests } = ids as { requirements: string[]; tests: string[] };
        const answers: unknown[] = [];
        for (const id of requirements) answers.push((await call(session.client, "get_requirement", { id })).structured);
        for (const id of tests) answers.push((await call(session.client, "get_test", { id })).structured);
        answers.push((await call(session.client, "test_plan_coverage")).structured);
        expectNoAbsolutePath(answers, args[0]);
      } finally {
        await session.close();
      }
    }
  });
});

describe("paths sent by a client", () => {
  let session: Session;
  const probe = path.join(scratch, "probe");
  const fifo = path.join(probe, "fifo.py");
  const tagged = path.join(probe, "tagged.py");

  beforeAll(async () => {
    mkdirSync(probe, { recursive: true });
    // Opening a FIFO for reading blocks until a writer comes: a server that opened it would
    // never answer, and would hold it open.
    execFileSync("mkfifo", [fifo]);
    // A real file, with a tag of the served project, outside every code source.
    writeFileSync(tagged, `# ${T}fixture#REQ-BASE\ndef f():\n    pass\n`);
    session = await connect([MCP_FIXTURE]);
  });
  afterAll(() => session.close());

  /** A reader on the FIFO would let a non-blocking writer open it: ENXIO proves there is none. */
  function expectFifoNeverOpened(): void {
    let fd: number | undefined;
    try {
      fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe("ENXIO");
      return;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    expect.fail("the FIFO has a reader: the server opened a path a client sent");
  }

  it("answers an ID that looks like a path from the model: not found", async () => {
    for (const id of ["../../etc/passwd", "/etc/passwd", fifo, tagged, "file:///etc/passwd"]) {
      const answer = await call(session.client, "get_requirement", { id });
      expect(answer).toEqual({ isError: true, structured: { error: `Requirement ${id} not found` } });
      const test = await call(session.client, "get_test", { id });
      expect(test.isError).toBe(true);
    }
    expectFifoNeverOpened();
  });

  it("answers find_code_references for files outside the project as not found, never opening them", async (ctx) => {
    const { tools } = await session.client.listTools();
    if (!tools.some((t) => t.name === "find_code_references")) ctx.skip("this server has no find_code_references tool yet");
    for (const file of [fifo, tagged, path.relative(REPO, tagged), "../../etc/passwd", "/etc/passwd", "/dev/zero", "/proc/self/environ"]) {
      // Outside every manifest's root and the working directory: not looked up at all, so not found.
      const answer = await call(session.client, "find_code_references", { file });
      expect(answer.isError, file).toBe(true);
      expect((answer.structured as { error: string }).error, file).toMatch(/^File '.*' not found$/);
    }
    // The model's own files are answered: the tool works, from the model.
    const inside = await call(session.client, "find_code_references", { file: path.join(REPO, "fixtures/mcp/src/auth.py") });
    expect((inside.structured as { references: unknown[] }).references.length).toBeGreaterThan(0);
    expectFifoNeverOpened();
  });

  it("answers resource URIs naming files from the model: not found", async () => {
    for (const uri of [`file://${fifo}`, "speky://requirement/..%2F..%2Fetc%2Fpasswd", `speky://requirement/${encodeURIComponent(fifo)}`]) {
      await expect(session.client.readResource({ uri }), uri).rejects.toThrow(/not found/i);
    }
    expectFifoNeverOpened();
  });
});
