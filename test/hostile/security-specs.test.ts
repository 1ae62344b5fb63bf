// Issue 12, defects 3 and 4: hostile spec files. A YAML string aliased thousands of times and
// TOML keys nested thousands deep are refused with one located error, by `speky check` and by
// a server (at start-up, and when a running one reloads them: it keeps serving, and its stale
// note cites the place). Each run is the real binary, its peak memory measured.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { connectMeasured, MAX_RSS_MB, MeasuredServer, runSpekyMeasured } from "../support/measured.js";
import { tempDir } from "../support/process.js";

const STALE = "speky-ts/stale";
const MB = 1024 * 1024;

/** Issue 12's repro: `long: &L "<1 MB>"`, then 9,000 requirements whose long is `*L`. */
function yamlBomb(): string {
  const lines = ["kind: requirements", "category: bomb", "requirements:", "  - id: R-0", `    long: &L "${"a".repeat(MB)}"`];
  for (let i = 1; i <= 9000; i++) lines.push(`  - id: R-${i}`, "    long: *L");
  return `${lines.join("\n")}\n`;
}

const deepKey = (parts: number) => Array(parts).fill("x").join(".");

function project(files: Record<string, string>): string {
  const dir = tempDir();
  const specs = Object.keys(files).filter((f) => f !== "speky.yaml");
  writeFileSync(path.join(dir, "speky.yaml"), `kind: project\nname: p\nfiles:\n${specs.map((f) => `  - ${f}\n`).join("")}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const GOOD_REQS = "kind: requirements\ncategory: c\nrequirements:\n  - id: R-GOOD\n    long: fine\n";
const GOOD_TOML = 'kind = "requirements"\ncategory = "c"\n[[requirements]]\nid = "R-TOML"\nlong = "fine"\n';

describe("a YAML string aliased 9,000 times", () => {
  // speky:speky-ts#TSEC-YAML-AMPLIFY
  it("is refused by speky check at the alias past the byte limit, in bounded memory", () => {
    const dir = project({ "reqs.yaml": yamlBomb() });
    const run = runSpekyMeasured(["check", "speky.yaml"], dir);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    // The limit is the file's size plus 1 MiB: the third alias of a 1 MB string crosses it.
    expect(run.stdout).toMatch(/^reqs\.yaml:11:11: error: YAML aliases expand this file by more than \d+ bytes/m);
    expect(run.stdout.trim().split("\n")).toHaveLength(2);
    expect(run.peakMB).toBeLessThan(MAX_RSS_MB);
  });

  it("is refused by a server at start-up, and a running server survives it", async () => {
    const atStart = new MeasuredServer(["speky.yaml"], project({ "reqs.yaml": yamlBomb() }));
    atStart.child.stdin.end();
    const refused = await atStart.exit();
    expect(refused.code).toBe(1);
    expect(atStart.stderr).toMatch(/reqs\.yaml:11:11: error: YAML aliases expand this file/);
    expect(refused.peakMB).toBeLessThan(MAX_RSS_MB);

    const dir = project({ "reqs.yaml": GOOD_REQS });
    const session = await connectMeasured(["speky.yaml"], dir);
    writeFileSync(path.join(dir, "reqs.yaml"), yamlBomb());
    const note = await staleNote(session);
    expect(note).toMatch(/^reqs\.yaml:11:11: error: YAML aliases expand this file by more than \d+ bytes/);
    const answer = await session.client.callTool({ name: "get_requirement", arguments: { id: "R-GOOD" } });
    expect((answer.structuredContent as { long: string }).long).toBe("fine");
    expect(await session.close()).toBeLessThan(MAX_RSS_MB);
  });
});

/** The stale note of the running server, once it has one (polled, bounded). */
async function staleNote(session: Awaited<ReturnType<typeof connectMeasured>>): Promise<string> {
  for (let tries = 0; tries < 600; tries++) {
    const answer = await session.client.callTool({ name: "list_all_ids", arguments: {} });
    const note = (answer._meta as Record<string, string> | undefined)?.[STALE];
    if (note) return note;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no stale note; stderr:\n${session.stderr()}`);
}

describe("TOML nested thousands of levels deep", () => {
  const cases: Record<string, [string, string]> = {
    "a dotted key of 5,000 parts": [`${GOOD_TOML}${deepKey(5000)} = 1\n`, "6:199"],
    "a dotted key of 50,000 parts": [`${GOOD_TOML}${deepKey(50_000)} = 1\n`, "6:199"],
    "a table header of 50,000 parts": [`${GOOD_TOML}[${deepKey(50_000)}]\na = 1\n`, "6:202"],
    "an array-of-tables header of 50,000 parts": [`${GOOD_TOML}[[${deepKey(50_000)}]]\na = 1\n`, "6:203"],
    "inline tables nested 50,000 deep": [`${GOOD_TOML}a = ${"{b = ".repeat(50_000)}1${"}".repeat(50_000)}\n`, "6:250"],
    "arrays nested 50,000 deep": [`${GOOD_TOML}a = ${"[".repeat(50_000)}1${"]".repeat(50_000)}\n`, "6:103"],
  };
  // speky:speky-ts#TSEC-TOML-DEPTH
  it.each(Object.entries(cases))("%s is one located error from speky check, in bounded memory", (_, [text, at]) => {
    const dir = project({ "reqs.toml": text });
    const run = runSpekyMeasured(["check", "speky.yaml"], dir);
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      `reqs.toml:${at}: error: TOML: keys, tables and arrays nested more than 100 levels deep here: refused\n1 error, 0 warnings\n`,
    );
    expect(run.peakMB).toBeLessThan(MAX_RSS_MB);
  });

  it("gives a running server's stale note its location", async () => {
    const dir = project({ "reqs.toml": GOOD_TOML });
    const session = await connectMeasured(["speky.yaml"], dir);
    writeFileSync(path.join(dir, "reqs.toml"), `${GOOD_TOML}${deepKey(50_000)} = 1\n`);
    const note = await staleNote(session);
    expect(note).toMatch(/^reqs\.toml:6:199: error: TOML: keys, tables and arrays nested more than 100 levels deep/);
    const answer = await session.client.callTool({ name: "get_requirement", arguments: { id: "R-TOML" } });
    expect(answer.isError).toBeFalsy();
    expect(await session.close()).toBeLessThan(MAX_RSS_MB);
  });
});
