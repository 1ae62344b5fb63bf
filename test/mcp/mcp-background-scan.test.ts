// The server answers before its scan of the code sources: through the built server, with the
// scan held after its walk by the test hook SPEKY_MCP_HOLD_SCAN (the scan waits until the
// named file exists), so every state below is reached by what the test does, never by timing.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, onTestFailed } from "vitest";
import { LiveModel } from "../../src/live/live-model.js";
import { call, connect, ok, type Session } from "../support/mcp.js";
import { copyFixture } from "../support/process.js";

const PARTIAL = "speky-ts/partial";
const IDS = {
  requirements: ["REQ-EXPORT", "REQ-LOGIN", "REQ-LOGOUT", "REQ-TIMEOUT"],
  tests: ["T-LOGIN", "T-TIMEOUT"],
};
/** Files the fixture's code_sources match (src/*.py and notes/*.txt). */
const SOURCES = 3;

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

interface Held {
  dir: string;
  session: Session;
  /** Lets the held scan go on. */
  release(): void;
}

/** Waits until the server's scan has listed its files (it is then held): polled, bounded. */
async function walked(session: Session): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const status = (await ok(session.client, "get_status")) as { scanning?: { files_total?: number } };
    if (status.scanning?.files_total !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the scan never finished its walk");
}

/** The server on a copy of fixtures/mcp-live, its scan held after its walk until `release`. */
async function held(waitMs: number, args: string[] = [], files: Record<string, string> = {}): Promise<Held> {
  const dir = copyFixture("mcp-live");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const gate = path.join(dir, "release-the-scan");
  const session = await connect(["speky.yaml", "--no-watch", ...args], {
    cwd: dir,
    env: { SPEKY_CACHE_DIR: path.join(dir, ".cache"), SPEKY_MCP_HOLD_SCAN: gate, SPEKY_MCP_SCAN_WAIT_MS: String(waitMs) },
  });
  sessions.push(session);
  onTestFailed(() => console.error(`speky-mcp stderr:\n${session.stderr()}`));
  await walked(session);
  return { dir, session, release: () => writeFileSync(gate, "") };
}

describe("start-up without waiting for the scan", () => {
  // speky:speky-ts#TMCP-BACKGROUND-SCAN
  it("answers initialize and the spec-only tools while the scan is held, and get_status tells the progress", async () => {
    const { session } = await held(600_000);
    expect(await ok(session.client, "list_all_ids")).toEqual(IDS);
    expect(await ok(session.client, "list_all_tags")).toEqual({ tags: expect.any(Array) });
    const found = (await ok(session.client, "search_requirements", {})) as { requirements: { id: string }[] };
    expect(found.requirements.map((r) => r.id)).toEqual(IDS.requirements);
    const listed = (await ok(session.client, "list_references_to", { id: "REQ-LOGOUT" })) as { requirements: unknown[] };
    expect(listed.requirements.length).toBeGreaterThan(0);
    const status = await session.client.callTool({ name: "get_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      code_references: 0,
      requirements: 4,
      tests: 2,
      scanning: { files_done: 0, files_total: SOURCES },
    });
    expect(status._meta).toBeUndefined();
  });

  // speky:speky-ts#TMCP-BACKGROUND-SCAN
  it("answers a code-reference tool after the wait bound with what is known, marked partial", async () => {
    const { session } = await held(0);
    const answer = await session.client.callTool({ name: "get_requirement", arguments: { id: "REQ-LOGIN" } });
    expect(answer.isError).toBeFalsy();
    expect(answer._meta).toEqual({ [PARTIAL]: `scan in progress: 0 of ${SOURCES} files` });
    expect(answer.structuredContent).not.toHaveProperty("code_references");
    for (const name of ["test_plan_coverage", "least_tested_requirements", "list_problems"]) {
      const partial = await session.client.callTool({ name, arguments: {} });
      expect(partial._meta, name).toEqual({ [PARTIAL]: `scan in progress: 0 of ${SOURCES} files` });
    }
    const file = await session.client.callTool({ name: "find_code_references", arguments: { file: "src/auth.py" } });
    expect(file._meta).toEqual({ [PARTIAL]: `scan in progress: 0 of ${SOURCES} files` });
    const test = await session.client.callTool({ name: "get_test", arguments: { id: "T-LOGIN" } });
    expect(test._meta).toEqual({ [PARTIAL]: `scan in progress: 0 of ${SOURCES} files` });
    // A resource holds get_requirement's content: marked the same way.
    const resource = await session.client.readResource({ uri: "speky://requirement/REQ-LOGIN" });
    expect(resource._meta).toEqual({ [PARTIAL]: `scan in progress: 0 of ${SOURCES} files` });
    // Spec-only tools carry no note: their answer is whole.
    const ids = await session.client.callTool({ name: "list_all_ids", arguments: {} });
    expect(ids._meta).toBeUndefined();
  });

  // speky:speky-ts#TMCP-BACKGROUND-SCAN
  it("makes a code-reference tool wait for the scan, sending progress, then answers whole", async () => {
    const { session, release } = await held(600_000);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    let sawFirst: () => void;
    const first = new Promise<void>((resolve) => (sawFirst = resolve));
    const pending = session.client.callTool({ name: "get_requirement", arguments: { id: "REQ-LOGIN" } }, CallToolResultSchema, {
      onprogress: (p) => {
        progress.push(p);
        sawFirst();
      },
    });
    // The call is waiting (it told so); only then is the scan let go.
    await first;
    expect(progress[0]).toEqual({ progress: 0, total: SOURCES, message: `scan in progress: 0 of ${SOURCES} files` });
    release();
    const answer = await pending;
    expect(answer._meta).toBeUndefined();
    const refs = (answer.structuredContent as { code_references?: { file: string }[] }).code_references;
    expect(refs?.map((r) => r.file)).toContain("src/auth.py");
    // Increasing, as the protocol wants, and never past the total.
    for (let i = 1; i < progress.length; i++) expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
    for (const p of progress) expect(p.progress).toBeLessThanOrEqual(SOURCES);

    const status = (await ok(session.client, "get_status")) as Record<string, unknown>;
    expect(status).not.toHaveProperty("scanning");
    expect(status.code_references).toBeGreaterThan(0);
    expect((await call(session.client, "list_problems")).isError).toBe(false);
  });
});

describe("verification_status before the first scan", () => {
  // speky:speky-ts#TMCP-VERIFICATION-LOADING
  it("says the scan is in progress, never that no test results are given, then answers from them", async () => {
    const junit = '<testsuite name="s"><testcase classname="tests" name="test_login"/></testsuite>\n';
    const { session, release } = await held(0, ["--results", "junit.xml"], { "junit.xml": junit });
    const early = await call(session.client, "verification_status");
    expect(early.isError).toBe(true);
    expect((early.structured as { error: string }).error).toBe(
      `scan in progress: 0 of ${SOURCES} files; the test results are read once it is done: call verification_status again then`,
    );
    release();
    for (let i = 0; i < 500 && "scanning" in ((await ok(session.client, "get_status")) as object); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await call(session.client, "verification_status");
    expect(answer.isError, JSON.stringify(answer.structured)).toBe(false);
    expect((answer.structured as { results: { files: unknown[] } }).results.files).toHaveLength(1);
  });
});

describe("LiveModel in background mode (the API the servers share)", () => {
  // speky:speky-ts#TMCP-BACKGROUND-SCAN
  it("serves the specs at once, tells the scan's progress, and swaps in the scanned model once", async () => {
    const dir = copyFixture("mcp-live");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const walked: number[] = [];
    const { live } = await LiveModel.open(
      [path.join(dir, "speky.yaml")],
      { cache: false },
      {
        background: true,
        afterWalk: async (total) => {
          walked.push(total);
          return gate;
        },
      },
    );
    expect(live).not.toBeNull();
    const before = live!.snapshot();
    expect(before.model.requirementIds).toEqual(IDS.requirements);
    expect(before.model.codeReferences).toEqual([]);
    expect(before.scanning).not.toBeNull();
    const scanned: number[] = [];
    live!.on("scanned", (model) => scanned.push(model.codeReferences.length));
    // The walk is done once the hold is reached: wait for it through the progress events.
    if (before.scanning!.total === null) await new Promise((resolve) => before.scanning!.once("progress", () => resolve(undefined)));
    expect(walked).toEqual([SOURCES]);
    expect(live!.status().scanning).toEqual({ files_done: 0, files_total: SOURCES });
    release();
    await live!.whenScanned();
    const after = live!.snapshot();
    expect(after.scanning).toBeNull();
    expect(after.loadedAt).toBe(before.loadedAt);
    expect(after.model.codeReferences.length).toBeGreaterThan(0);
    expect(scanned).toEqual([after.model.codeReferences.length]);
    expect(live!.status()).not.toHaveProperty("scanning");
    // The held state never changes: a call that read it keeps one model.
    expect(before.model.codeReferences).toEqual([]);
  });
});
