// speky's command line writes into its output folder only: over a folder of speky's pages
// (stale pages gone, planted links replaced, their targets untouched), never into a folder
// holding anything else, never through a link, and nothing at all for a page name that would
// leave its folder.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitTree } from "../support/myst.js";
import { runSpeky, tempDir } from "../support/process.js";

const listing = (dir: string) => readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();

describe("speky's output folder", () => {
  // speky:speky-ts#TSPEKY-OUTPUT
  it("rewrites a folder of speky's pages: stale pages removed, planted links replaced", () => {
    const dir = gitTree("shop");
    expect(runSpeky(["speky.yaml"], dir).status).toBe(0);
    const first = listing(path.join(dir, "markdown"));
    const victim = path.join(tempDir(), "victim.md");
    writeFileSync(victim, "keep me\n");
    writeFileSync(path.join(dir, "markdown/requirements/GONE-1.md"), "# a page of an ID renamed since\n");
    writeFileSync(path.join(dir, "markdown/.DS_Store"), "Finder was here\n");
    const planted = path.join(dir, "markdown/requirements/CORE-1.md");
    const css = path.join(dir, "markdown/css/speky.css");
    for (const link of [planted, css]) {
      rmSync(link);
      symlinkSync(victim, link);
    }
    const run = runSpeky(["speky.yaml"], dir);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(lstatSync(planted).isSymbolicLink()).toBe(false);
    expect(readFileSync(planted, "utf8")).toMatch(/^# `CORE-1` Items have a price\n/);
    expect(listing(path.join(dir, "markdown"))).toEqual(first);
  });

  it("refuses a folder holding anything speky never writes, a link, and a file", () => {
    const dir = gitTree("shop");
    mkdirSync(path.join(dir, "docs"));
    writeFileSync(path.join(dir, "docs/conf.py"), "project = 'mine'\n");
    writeFileSync(path.join(dir, "docs/index.md"), "# My own index\n");
    const foreign = runSpeky(["speky.yaml", "-o", "docs"], dir);
    expect(foreign.status).toBe(1);
    expect(foreign.stderr).toContain("output folder 'docs' holds 'conf.py', which speky's pages never include");
    expect(listing(path.join(dir, "docs"))).toEqual(["conf.py", "index.md"]);
    expect(readFileSync(path.join(dir, "docs/index.md"), "utf8")).toBe("# My own index\n");

    const elsewhere = tempDir();
    symlinkSync(elsewhere, path.join(dir, "linked"));
    const linked = runSpeky(["speky.yaml", "--output-folder", "linked"], dir);
    expect(linked.status).toBe(1);
    expect(linked.stderr).toContain("is a symbolic link");
    expect(readdirSync(elsewhere)).toEqual([]);

    const file = runSpeky(["speky.yaml", "-o", "speky.yaml"], dir);
    expect(file.status).toBe(1);
    expect(file.stderr).toContain("exists and is not a folder");
  });

  // speky:speky-ts#TSPEKY-OUTPUT
  it("writes nothing when an ID or a category would leave its folder", () => {
    const dir = tempDir();
    const spec = "kind: requirements\ncategory: ../../escaped\nrequirements:\n  - id: R-1\n    long: x\n";
    writeFileSync(path.join(dir, "reqs.yaml"), spec);
    const run = runSpeky(["reqs.yaml", "-o", "a/b"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("'../../escaped.md' would leave its folder");
    expect(existsSync(path.join(dir, "a"))).toBe(false);
    expect(existsSync(path.join(dir, "escaped.md"))).toBe(false);
  });

  it("keeps the sub-commands first and takes any other first word as speky's FILE", () => {
    const dir = gitTree("shop");
    expect(runSpeky(["check", "speky.yaml"], dir).stdout).toContain("NOPE-1");
    const missing = runSpeky(["frobnicate"], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("frobnicate");
    expect(existsSync(path.join(dir, "markdown"))).toBe(false);
    expect(runSpeky(["-v"], dir).stdout).toMatch(/^speky \d+\.\d+\.\d+\n$/);
    expect(runSpeky(["speky.yaml", "--help"], dir).stdout).toMatch(/^usage: speky \[-h\] \[-v\] \[-o PATH\]/);
  });
});
