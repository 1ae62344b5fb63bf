// changes_since(base) through the SDK client on the built speky-mcp, and `speky report --diff`'s
// changes page: the same document as `speky diff BASE --format json`, for an agent and a reader.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyHeadChanges, BASE_FILES, expectedChanges, links, SECTION_HEADINGS } from "../support/diff-scenario.js";
import { GitRepo, removeScratch, scratch } from "../support/git-repo.js";
import { call, connect, type Session } from "../support/mcp.js";
import { runSpeky } from "../support/process.js";

afterAll(removeScratch);

describe("changes_since", () => {
  let repo: GitRepo;
  let base: string;
  let session: Session;
  beforeAll(async () => {
    repo = GitRepo.init(BASE_FILES);
    base = repo.commit("base");
    applyHeadChanges(repo);
    session = await connect(["speky.yaml", "--no-watch"], { cwd: repo.dir });
  });
  afterAll(() => session?.close());

  // speky:speky-ts#TDIFF-MCP
  it("answers what speky diff answers, for the working tree the server serves, checked against its output schema", async () => {
    const tools = (await session.client.listTools()).tools;
    const tool = tools.find((t) => t.name === "changes_since")!;
    expect(tool.inputSchema.required).toEqual(["base"]);
    expect(Object.keys(tool.outputSchema!.properties!)).toEqual([
      "base",
      "base_commit",
      "head",
      "warnings",
      "without_specification",
      "load_errors",
      "manifests",
      "requirements",
      "tests",
      "code_references",
      "coverage",
      "impact",
      "suspect",
      "rerun",
      "truncated",
      "error",
      "did_you_mean",
    ]);
    const answer = await call(session.client, "changes_since", { base: "main" });
    expect(answer.isError).toBe(false);
    expect(answer.structured).toEqual(expectedChanges("main", base, "working tree"));
    const cli = runSpeky(["diff", "main", "--format", "json"], repo.dir);
    expect(answer.structured).toEqual(JSON.parse(cli.stdout));
  });

  it("answers a revision that is none, or an option, as a domain error", async () => {
    for (const [revision, message] of [
      ["nope", "'nope' is not a revision: no commit of this repository has that name"],
      ["--output=x", "'--output=x' is not a revision (it starts with '-'; options go after the command)"],
    ]) {
      const answer = await call(session.client, "changes_since", { base: revision });
      expect(answer).toEqual({ isError: true, structured: { error: message } });
    }
  });
});

describe("speky report --diff", () => {
  // speky:speky-ts#TDIFF-REPORT
  it("adds a changes page, linked from every page, with the diff's sections, IDs linked to their views", () => {
    const repo = GitRepo.init(BASE_FILES);
    const base = repo.commit("base");
    applyHeadChanges(repo);
    const out = path.join(scratch(), "site");
    const run = runSpeky(["report", "speky.yaml", "--diff", "main", "--out", out], repo.dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const page = readFileSync(path.join(out, "changes.html"), "utf8");
    expect(page).toContain(`<h1>Changes since <code>main</code> <span class="sub">shop</span></h1>`);
    expect(page).toContain(`<code title="${base}">${base.slice(0, 12)}</code>`);
    for (const heading of SECTION_HEADINGS) {
      expect(page).toContain(`>${heading}</h2>`);
    }
    expect(page).toContain(`<td>added</td><td><a class="id" href="requirements/0001.html#REQ-9">REQ-9</a></td><td>Coupons</td>`);
    expect(page).toContain(`<td>removed</td><td><span class="id">REQ-3</span></td>`);
    expect(page).toContain(`<a href="${links.headTotal}" rel="noreferrer"><code>src/cart.py:3-4</code></a>`);
    expect(page).toContain(`<a href="${links.baseOld(base)}" rel="noreferrer"><code>src/old.py:2</code></a>`);
    expect(page).toContain(`<td>Automated</td><td>Manual</td>`);
    for (const file of ["index.html", "tests.html", "matrix.html", "problems.html", "changes.html"]) {
      expect(readFileSync(path.join(out, file), "utf8")).toContain(`<a href="changes.html"`);
    }
    // Without --diff: no such page, no such link.
    const plain = path.join(scratch(), "site");
    expect(runSpeky(["report", "speky.yaml", "--out", plain], repo.dir).status).toBe(0);
    expect(readFileSync(path.join(plain, "index.html"), "utf8")).not.toContain("changes.html");
    const bad = runSpeky(["report", "speky.yaml", "--diff", "nope", "--out", path.join(scratch(), "x")], repo.dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("speky: 'nope' is not a revision: no commit of this repository has that name\n");
  });
});
