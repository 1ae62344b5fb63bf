// speky's own command line, differentially: every case of fixtures/myst/cases.json run with
// our binary, its exit status and every byte of every page compared with what speky's own
// generator wrote for the same tree and the same code references (fixtures/myst/expected/,
// written by scripts/speky-golden.mjs from speky's snapshot named in golden.json).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, gitTree } from "../support/myst.js";
import { runSpeky } from "../support/process.js";

const EXPECTED = path.join(FIXTURES, "expected");

interface Case {
  name: string;
  tree: string;
  args: string[];
  out: string | null;
}

const { cases } = JSON.parse(readFileSync(path.join(FIXTURES, "cases.json"), "utf8")) as { cases: Case[] };
const golden = JSON.parse(readFileSync(path.join(EXPECTED, "golden.json"), "utf8")) as { statuses: Record<string, number> };

/** Every file under dir, relative, sorted, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (sub: string) => {
    for (const e of readdirSync(path.join(dir, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else files.set(rel, readFileSync(path.join(dir, rel)));
    }
  };
  walk("");
  return files;
}

describe("speky's command line, compared with speky", () => {
  it("has a golden status for every case and golden pages for every case that writes", () => {
    expect(Object.keys(golden.statuses).sort()).toEqual(cases.map((c) => c.name).sort());
    for (const c of cases.filter((c) => c.out !== null)) expect(existsSync(path.join(EXPECTED, c.name, "index.md")), c.name).toBe(true);
  });

  // speky:speky-ts#TSPEKY-PAGES
  it.each(cases.filter((c) => c.out !== null))("writes speky's pages byte for byte: $name", (c) => {
    const dir = gitTree(c.tree);
    const run = runSpeky(c.args, dir);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(golden.statuses[c.name]);
    const ours = tree(path.join(dir, c.out!));
    const theirs = tree(path.join(EXPECTED, c.name));
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    for (const [file, bytes] of theirs) expect(ours.get(file)?.toString("utf8"), `${c.name}/${file}`).toBe(bytes.toString("utf8"));
    expect(ours.size).toBeGreaterThan(5);
  });

  // speky:speky-ts#TSPEKY-CHECK-ONLY
  it.each(cases.filter((c) => c.out === null))("exits as speky does and writes nothing: $name", (c) => {
    const dir = gitTree(c.tree);
    const before = [...tree(dir).keys()].filter((f) => !f.startsWith(".git/"));
    const run = runSpeky(c.args, dir);
    expect(run.status, run.stderr).toBe(golden.statuses[c.name]);
    expect([...tree(dir).keys()].filter((f) => !f.startsWith(".git/"))).toEqual(before);
    if (run.status === 1) expect(run.stderr).toMatch(/error|cannot|no such file/);
    if (run.status === 2) expect(run.stderr).toMatch(/^speky: .+\nTry 'speky --help'\.\n$/);
  });

  it("orders a category's requirements by file order with --no-sort and by ID with --sort", () => {
    const read = (name: string) => readFileSync(path.join(EXPECTED, name, "requirements/mixed.md"), "utf8");
    expect(read("direct-no-sort")).toContain("\n\nM-1\nB-9\nZ-1\nA-2\n:::\n");
    expect(read("direct-sorted")).toContain("\n\nA-2\nB-9\nM-1\nZ-1\n:::\n");
  });
});
