// The live model through the built server: each test copies fixtures/mcp-live to a temporary
// folder, serves it, edits the copy and polls the server until the edit shows (no fixed sleeps).
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, onTestFailed } from "vitest";
import { call, connect, ok, type Session } from "../support/mcp.js";
import { copyFixture } from "../support/process.js";

const STALE = "speky-ts/stale";
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const ORIGINAL_IDS = {
  requirements: ["REQ-EXPORT", "REQ-LOGIN", "REQ-LOGOUT", "REQ-TIMEOUT"],
  tests: ["T-LOGIN", "T-TIMEOUT"],
};
const OWNER_WARNING = {
  file: "specs/tests.yaml",
  line: 15,
  column: 5,
  severity: "warning",
  message: "test 'T-TIMEOUT': unknown field 'owner' (ignored)",
};

const NO_GRAMMAR = {
  file: "notes/todo.txt",
  line: 1,
  column: 9,
  severity: "warning",
  message: "no grammar for this file type: tag not scanned",
};
const DANGLING = {
  file: "src/auth.py",
  line: 25,
  column: 3,
  severity: "error",
  message: "tag speky:live#REQ-LOGN names an unknown ID 'REQ-LOGN'; did you mean REQ-LOGIN?",
};
const T_LOGIN = { id: "T-LOGIN", category: "functional", short: "Log in and out" };
const T_TIMEOUT = { id: "T-TIMEOUT", category: "functional", short: "Wait for the timeout" };

interface Live {
  dir: string;
  session: Session;
  /** Writes (or appends to) a file of the copy. */
  write(rel: string, text: string): void;
  append(rel: string, text: string): void;
  read(rel: string): string;
}

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

async function serve(dir: string, ...extra: string[]): Promise<Session> {
  // A private scan cache: the tests neither read nor leave anything in the user's.
  const session = await connect(["speky.yaml", ...extra], { cwd: dir, env: { SPEKY_CACHE_DIR: path.join(dir, ".cache") } });
  sessions.push(session);
  onTestFailed(() => console.error(`speky-mcp ${extra.join(" ")} stderr:\n${session.stderr()}`));
  return session;
}

async function live(prepare?: (dir: string) => void, ...extra: string[]): Promise<Live> {
  const dir = copyFixture("mcp-live");
  prepare?.(dir);
  const session = await serve(dir, ...extra);
  return {
    dir,
    session,
    write: (rel, text) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    },
    append: (rel, text) => appendFileSync(path.join(dir, rel), text),
    read: (rel) => readFileSync(path.join(dir, rel), "utf8"),
  };
}

/**
 * Calls `probe` until `done` accepts its answer: the state the server reaches, not a time. `ms`
 * only bounds a failure (a reload that never comes), far above any reload's time.
 */
async function poll<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await probe();
    const elapsed = performance.now() - started;
    if (done(value)) return { value, ms: elapsed };
    if (elapsed > ms) throw new Error(`not seen within ${ms} ms; last answer: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ids = (s: Session) => ok(s.client, "list_all_ids") as Promise<{ requirements: string[]; tests: string[] }>;
const status = (s: Session) => ok(s.client, "get_status") as Promise<{ loaded_at: string; stale: boolean }>;

describe("watching", () => {
  // speky:speky-ts#TLIVE-WATCH
  // speky:speky-ts#TINSTALL-DETERMINISTIC
  it("sees a requirement added to an existing YAML file", async () => {
    const { session, append } = await live();
    expect(await ids(session)).toEqual(ORIGINAL_IDS);
    append("specs/requirements.yaml", "  - id: REQ-AUDIT\n    short: Audit log\n    long: Every login is logged.\n");
    const seen = await poll(
      () => ids(session),
      (v) => v.requirements.includes("REQ-AUDIT"),
    );
    expect(seen.value).toEqual({ ...ORIGINAL_IDS, requirements: ["REQ-AUDIT", ...ORIGINAL_IDS.requirements] });
    expect(await ok(session.client, "get_requirement", { id: "REQ-AUDIT" })).toEqual({
      id: "REQ-AUDIT",
      category: "functional",
      long: "Every login is logged.",
      source_file: "specs/requirements.yaml",
      short: "Audit log",
    });
  });

  // speky:speky-ts#TLIVE-WATCH
  it("follows a file saved by rename, as editors save, and keeps following it", async () => {
    const { dir, session, read, write } = await live();
    const original = read("specs/requirements.yaml");
    write("specs/.requirements.yaml.swp", `${original}  - id: REQ-SAVED\n    long: Saved by rename.\n`);
    renameSync(path.join(dir, "specs/.requirements.yaml.swp"), path.join(dir, "specs/requirements.yaml"));
    await poll(
      () => ids(session),
      (v) => v.requirements.includes("REQ-SAVED"),
    );
    // The file now is another inode: a later edit in place must still be seen.
    write("specs/requirements.yaml", `${original}  - id: REQ-EDITED\n    long: Edited in place.\n`);
    const seen = await poll(
      () => ids(session),
      (v) => v.requirements.includes("REQ-EDITED"),
    );
    expect(seen.value).toEqual({ ...ORIGINAL_IDS, requirements: ["REQ-EDITED", ...ORIGINAL_IDS.requirements] });
  });

  // speky:speky-ts#TLIVE-WATCH
  it("sees a new spec file matched by the manifest's glob", async () => {
    const { session, write } = await live();
    write(
      "specs/more-tests.yaml",
      "kind: tests\ncategory: extra\ntests:\n  - id: T-EXPORT\n    long: Exports.\n    ref: [REQ-EXPORT]\n    steps:\n      - action: Export\n",
    );
    const seen = await poll(
      () => ids(session),
      (v) => v.tests.includes("T-EXPORT"),
    );
    expect(seen.value).toEqual({ ...ORIGINAL_IDS, tests: ["T-EXPORT", "T-LOGIN", "T-TIMEOUT"] });
    expect(await ok(session.client, "search_tests", { tester_of: "REQ-EXPORT" })).toEqual({
      tests: [{ id: "T-EXPORT", category: "extra" }],
    });
  });

  // speky:speky-ts#TLIVE-WATCH
  it("sees a tag added in a source file in get_requirement's code_references", async () => {
    const { session, append } = await live();
    const before = await ok(session.client, "get_requirement", { id: "REQ-EXPORT" });
    expect(before).not.toHaveProperty("code_references");
    append("src/auth.py", "\n\n# speky:live#REQ-EXPORT\ndef export_report(rows):\n    return rows\n");
    const seen = await poll(
      () => ok(session.client, "get_requirement", { id: "REQ-EXPORT" }),
      (v) => (v as { code_references?: unknown[] }).code_references !== undefined,
    );
    expect(seen.value).toEqual({
      id: "REQ-EXPORT",
      category: "functional",
      long: "The report can be saved as a CSV file. Délai d'exportation sans limite.",
      source_file: "specs/requirements.yaml",
      short: "Export the report",
      code_references: [{ project: "live", file: "src/auth.py", line: 31, symbol: "export_report" }],
    });
  });

  // speky:speky-ts#TLIVE-WATCH
  it("sees a source file created in a new folder, and forgets a deleted one's tags", async () => {
    const { session, write } = await live();
    write("src/export/csv_writer.py", "# speky:live#REQ-EXPORT\ndef write_csv(rows):\n    return rows\n");
    const seen = await poll(
      () => ok(session.client, "find_code_references", { file: "src/export/csv_writer.py" }),
      (v) => (v as { references: unknown[] }).references.length > 0,
    );
    expect(seen.value).toEqual({
      references: [
        {
          project: "live",
          file: "src/export/csv_writer.py",
          line: 2,
          symbol: "write_csv",
          is_test: false,
          id: "REQ-EXPORT",
          kind: "requirement",
          short: "Export the report",
        },
      ],
    });
    // Edited again inside the new folder: the folder is watched too.
    write("src/export/csv_writer.py", "def write_csv(rows):\n    return rows\n");
    await poll(
      () => ok(session.client, "find_code_references", { file: "src/export/csv_writer.py" }),
      (v) => (v as { references: unknown[] }).references.length === 0,
    );
  });

  // speky:speky-ts#TLIVE-WATCH
  it("keeps serving the last good model while the specs are broken, says so, and takes the new one when fixed", async () => {
    const { session, read, write } = await live();
    const good = read("specs/requirements.yaml");
    const loaded = (await status(session)).loaded_at;

    // A ref to an ID no file defines: the one error of the new attempt.
    write("specs/requirements.yaml", good.replace("ref: [REQ-LOGOUT]", "ref: [REQ-LOGOUT, REQ-GONE]"));
    const broken = await poll(
      () => status(session),
      (v) => v.stale,
    );
    const error = {
      file: "specs/requirements.yaml",
      line: 17,
      column: 23,
      severity: "error",
      message: "unknown ref 'REQ-GONE' (no requirement or test has this ID)",
    };
    expect(broken.value).toEqual({
      loaded_at: loaded,
      stale: true,
      files: 6,
      requirements: 4,
      tests: 2,
      code_references: 5,
      problems: [error, OWNER_WARNING],
    });
    // Every answer still comes from the old model, and carries the note.
    const answer = await session.client.callTool({ name: "list_all_ids", arguments: {} });
    expect(answer.structuredContent).toEqual(ORIGINAL_IDS);
    const note = (answer._meta as Record<string, string>)[STALE];
    expect(note).toBe(
      `specs/requirements.yaml:17:23: error: unknown ref 'REQ-GONE' (no requirement or test has this ID) — serving the model loaded at ${loaded}`,
    );
    const failed = await session.client.callTool({ name: "get_requirement", arguments: { id: "NOPE" } });
    expect(failed.isError).toBe(true);
    expect((failed._meta as Record<string, string>)[STALE]).toBe(note);
    // list_problems: what `speky check` would say now, the dangling tags judged by the served model.
    expect(await ok(session.client, "list_problems")).toEqual({ problems: [NO_GRAMMAR, error, OWNER_WARNING, DANGLING] });

    write("specs/requirements.yaml", `${good}  - id: REQ-FIXED\n    long: Back to a valid file.\n`);
    const fixed = await poll(
      () => status(session),
      (v) => !v.stale,
    );
    expect(fixed.value).toEqual({
      loaded_at: expect.stringMatching(ISO),
      stale: false,
      files: 6,
      requirements: 5,
      tests: 2,
      code_references: 5,
      problems: [OWNER_WARNING],
    });
    expect(fixed.value.loaded_at > loaded).toBe(true);
    const after = await session.client.callTool({ name: "list_all_ids", arguments: {} });
    expect(after._meta).toBeUndefined();
    expect(after.structuredContent).toEqual({ ...ORIGINAL_IDS, requirements: [...ORIGINAL_IDS.requirements, "REQ-FIXED"].sort() });
  });

  // speky:speky-ts#TLIVE-WATCH
  it("notifies resources/list_changed when the IDs change, not when only code changes", async () => {
    const { session, append } = await live();
    let notified = 0;
    session.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      notified++;
    });
    append("specs/requirements.yaml", "  - id: REQ-NOTIFY\n    long: A new ID.\n");
    await poll(
      () => ids(session),
      (v) => v.requirements.includes("REQ-NOTIFY"),
    );
    // Notifications and answers share one ordered stream: it came before the answer that saw the ID.
    expect(notified).toBe(1);
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.name)).toContain("REQ-NOTIFY");

    const before = (await status(session)).loaded_at;
    append("src/auth.py", "\n\n# speky:live#REQ-NOTIFY\ndef notify():\n    pass\n");
    await poll(
      () => status(session),
      (v) => v.loaded_at !== before,
    );
    expect(notified).toBe(1);
  });

  // speky:speky-ts#TLIVE-WATCH
  it("answers every call made during a reload from one model, old or new, never a mix", async () => {
    const bulk = (prefix: string) =>
      "kind: requirements\ncategory: bulk\nrequirements:\n" +
      Array.from(
        { length: 400 },
        (_, i) => `  - id: ${prefix}-${String(i).padStart(3, "0")}\n    long: Item ${i}.\n    tags: [${prefix.toLowerCase()}]\n`,
      ).join("");
    const { session, write } = await live((dir) => writeFileSync(path.join(dir, "specs/bulk.yaml"), bulk("OLD")));
    const oldIds = { ...ORIGINAL_IDS, requirements: [...ORIGINAL_IDS.requirements, ...idsOf("OLD")].sort() };
    const newIds = { ...ORIGINAL_IDS, requirements: [...ORIGINAL_IDS.requirements, ...idsOf("NEW")].sort() };
    expect(await ids(session)).toEqual(oldIds);

    write("specs/bulk.yaml", bulk("NEW"));
    const answers: unknown[] = [];
    const statuses: unknown[] = [];
    let sawNew = false;
    const started = performance.now();
    // Keep eight calls in flight until the new model has answered a while.
    while (!sawNew || answers.length < 200) {
      if (performance.now() - started > 10_000) throw new Error("the new model never showed");
      const batch = await Promise.all([
        ...Array.from({ length: 6 }, () => ids(session)),
        ok(session.client, "search_requirements", { category: "bulk" }),
        status(session),
      ]);
      answers.push(...batch.slice(0, 6));
      statuses.push(batch[7]);
      const summaries = (batch[6] as { requirements: { id: string; tags: string[] }[] }).requirements;
      // One summary list: all old or all new, tags matching their IDs.
      const prefixes = new Set(summaries.map((s) => s.id.slice(0, 3)));
      expect(prefixes.size).toBe(1);
      for (const s of summaries) expect(s.tags).toEqual([s.id.slice(0, 3).toLowerCase()]);
      if (batch.slice(0, 6).some((a) => JSON.stringify(a) === JSON.stringify(newIds))) sawNew = true;
    }
    for (const answer of answers) expect([oldIds, newIds]).toContainEqual(answer);
    for (const s of statuses as { requirements: number }[]) expect(s.requirements).toBe(404);
  });

  it("serves the start-up model with --no-watch", async () => {
    const { dir, session: watching, append } = await live();
    const frozen = await serve(dir, "--no-watch");
    append("specs/requirements.yaml", "  - id: REQ-LATER\n    long: Added after start-up.\n");
    // The watching server is the clock: once it has reloaded, the other one would have too.
    await poll(
      () => ids(watching),
      (v) => v.requirements.includes("REQ-LATER"),
    );
    expect(await ids(frozen)).toEqual(ORIGINAL_IDS);
  });
});

describe("cursors across reloads", () => {
  it("refuses a cursor whose answer changed, and honours one whose answer did not", async () => {
    const { session, append } = await live();
    const first = (await ok(session.client, "list_all_ids", { limit: 2 })) as { nextCursor: string };
    expect(first).toEqual({ requirements: ["REQ-EXPORT", "REQ-LOGIN"], tests: [], nextCursor: expect.any(String) });
    const tests = (await ok(session.client, "search_tests", { limit: 1 })) as { nextCursor: string };
    expect(tests).toEqual({ tests: [T_LOGIN], nextCursor: expect.any(String) });

    append("specs/requirements.yaml", "  - id: REQ-SHIFT\n    long: Shifts every page.\n");
    await poll(
      () => ids(session),
      (v) => v.requirements.includes("REQ-SHIFT"),
    );
    const answer = await call(session.client, "list_all_ids", { limit: 2, cursor: first.nextCursor });
    expect(answer).toEqual({
      isError: true,
      structured: {
        error: "Stale cursor: the answer changed since it was issued (the specification was reloaded); call again without cursor",
      },
    });
    // The tests did not change with the reload: their cursor still reads the rest.
    expect(await ok(session.client, "search_tests", { limit: 1, cursor: tests.nextCursor })).toEqual({ tests: [T_TIMEOUT] });
  });
});

function idsOf(prefix: string): string[] {
  return Array.from({ length: 400 }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}`);
}
