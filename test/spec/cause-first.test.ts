// Errors in order of cause: a spec file that fails to load comes first, and the errors that
// only follow from the IDs it would have defined are one counted line, in `speky check`, in the
// server's start-up log, in its stale note and in get_status.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { idsWrittenIn } from "../../src/loader/cause.js";
import { connect, ok, type Session } from "../support/mcp.js";
import { copyFixture, runSpeky, tempDir } from "../support/process.js";

/** A git work tree: the manifest in specs/ reaches its parent (root_directory: ..). */
function tree(files: Record<string, string>): string {
  const dir = tempDir();
  execFileSync("git", ["init", "-q", dir]);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const MANIFEST = "kind: project\nname: shop\nroot_directory: ..\nfiles: [specs/*.yaml]\n";
const BROKEN =
  'kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-2\n    short: Two: bad\n    long: x\n  - id: "REQ-3"\n    short: Three\n    long: x\n';

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

describe("errors in order of cause", () => {
  // speky:speky-ts#TINSTALL-CAUSE-FIRST
  it("puts a failed file's error first and counts the errors that follow from its IDs in one line", () => {
    const dir = tree({
      "specs/manifest.yaml": MANIFEST,
      // Sorted first, and naming the failed file's IDs three times.
      "specs/a-reqs.yaml":
        "kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-1\n    short: One\n    long: x\n    ref: [REQ-2, REQ-3]\n" +
        "  - id: REQ-4\n    short: Four\n    long: x\n    ref: [REQ-9]\n",
      "specs/b-more.yaml": BROKEN,
      "specs/c-tests.yaml":
        "kind: tests\ncategory: f\ntests:\n  - id: T-1\n    short: t\n    long: t\n    ref: [REQ-2]\n    steps: [{action: a}]\n",
    });
    const run = runSpeky(["check", "specs/manifest.yaml"], dir);
    expect(run.stdout).toBe(
      "specs/b-more.yaml:5:12: error: YAML syntax error: Nested mappings are not allowed in compact mappings\n" +
        "specs/b-more.yaml: error: 3 more errors name IDs of specs/b-more.yaml, which failed to load\n" +
        // An unknown ID that the failed file does not show is still an error of its own.
        "specs/a-reqs.yaml:11:11: error: unknown ref 'REQ-9' (no requirement or test has this ID); did you mean REQ-1?\n" +
        "3 errors, 0 warnings\n",
    );
    expect(run.status).toBe(1);
  });

  it("reads back the IDs of a file its parser rejected, YAML or TOML", () => {
    expect(idsWrittenIn(BROKEN)).toEqual(["REQ-2", "REQ-3"]);
    expect(idsWrittenIn('[[requirements]]\nid = "R-1"\n[[requirements]]\n  id="R-2" # x\n')).toEqual(["R-1", "R-2"]);
    expect(idsWrittenIn("ref: [REQ-1]\nlong: id: no\n")).toEqual([]);
  });

  it("says one more error in the singular", () => {
    const dir = tree({
      "specs/manifest.yaml": MANIFEST,
      "specs/a-reqs.yaml": "kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-1\n    short: One\n    long: x\n    ref: [REQ-3]\n",
      "specs/b-more.yaml": BROKEN,
    });
    expect(runSpeky(["check", "specs/manifest.yaml"], dir).stdout).toContain(
      "specs/b-more.yaml: error: 1 more error names IDs of specs/b-more.yaml, which failed to load\n",
    );
  });

  it("leads the server's stale note and get_status with the cause", async () => {
    const dir = copyFixture("mcp-live");
    const session = await connect(["speky.yaml"], { cwd: dir, env: { SPEKY_CACHE_DIR: path.join(dir, ".cache") } });
    sessions.push(session);
    const file = path.join(dir, "specs/requirements.yaml");
    // A YAML typo in the file that defines every ID tests.yaml names (three refs).
    writeFileSync(file, readFileSync(file, "utf8").replace("short: Log out", "short: Log: out"));
    type Status = { stale: boolean; problems: { file: string; line: number; severity: string; message: string }[] };
    let status: Status;
    // The reload is an event of the server: wait for the state it leads to.
    for (;;) {
      status = (await ok(session.client, "get_status")) as Status;
      if (status.stale) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const errors = status.problems.filter((p) => p.severity === "error");
    expect(errors.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      "specs/requirements.yaml:9: YAML syntax error: Nested mappings are not allowed in compact mappings",
      "specs/requirements.yaml:0: 3 more errors name IDs of specs/requirements.yaml, which failed to load",
    ]);
    const answer = await session.client.callTool({ name: "list_all_tags", arguments: {} });
    const note = (answer._meta as Record<string, string>)["speky-ts/stale"];
    expect(note).toMatch(
      /^specs\/requirements\.yaml:9:\d+: error: YAML syntax error: .* \(and 1 more error\) — serving the model loaded at /,
    );
  });
});
