// The pieces of the live server in process: the directory watcher, the LiveModel's swap,
// coalescing and stale state, and the paging helper. The spawned-server behaviour is in
// mcp-live.test.ts.
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LiveModel } from "../../src/live/live-model.js";
import { type LiveState, staleNote, statusOf } from "../../src/live/state.js";
import { normalisePlan, TreeWatcher } from "../../src/live/watcher.js";
import { encodeCursor, Listing, lazy, MAX_PAGE_CHARS, materialize, pageOf } from "../../src/mcp/answers/paging.js";
import type { Model } from "../../src/model/model.js";
import { copyFixture, tempDir } from "../support/process.js";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Collects reported paths; `until` resolves once one satisfies the predicate. */
function recorder() {
  const seen: string[] = [];
  let waiters: { test: (p: string) => boolean; resolve: () => void }[] = [];
  return {
    seen,
    record: (p: string) => {
      seen.push(p);
      for (const w of waiters) if (w.test(p)) w.resolve();
      waiters = waiters.filter((w) => !w.test(p));
    },
    until: (test: (p: string) => boolean) =>
      seen.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve })),
  };
}

describe.runIf(process.platform === "linux")("TreeWatcher (one watcher per directory)", () => {
  function tree() {
    const root = tempDir("speky-watch-");
    for (const d of ["a/b", "node_modules/pkg", ".git/objects", "cache"]) mkdirSync(path.join(root, d), { recursive: true });
    // A git work tree (it has .git) whose rules exclude the installed packages.
    writeFileSync(path.join(root, ".gitignore"), "node_modules/\n");
    return root;
  }

  // speky:speky-ts#TWALK-IGNORE
  it("watches every folder of a tree but .git, git-ignored ones and ignored ones", async () => {
    const root = tree();
    const watcher = new TreeWatcher(() => {}, undefined, [path.join(root, "cache")]);
    closers.push(() => watcher.close());
    watcher.update({ trees: [root], folders: [] });
    await watcher.settled();
    expect(watcher.watchedDirectories()).toEqual([root, path.join(root, "a"), path.join(root, "a/b")]);
    // --no-ignore: the rules do not apply, .git is still never walked.
    const all = new TreeWatcher(() => {}, undefined, [path.join(root, "cache")], false);
    closers.push(() => all.close());
    all.update({ trees: [root], folders: [] });
    await all.settled();
    expect(all.watchedDirectories()).toEqual([
      root,
      path.join(root, "a"),
      path.join(root, "a/b"),
      path.join(root, "node_modules"),
      path.join(root, "node_modules/pkg"),
    ]);
  });

  it("reports changes in nested and new folders, never in pruned ones", async () => {
    const root = tree();
    const events = recorder();
    const watcher = new TreeWatcher(events.record, undefined, [path.join(root, "cache")]);
    closers.push(() => watcher.close());
    watcher.update({ trees: [root], folders: [] });
    await watcher.settled();

    writeFileSync(path.join(root, "node_modules/pkg/index.js"), "x");
    writeFileSync(path.join(root, ".git/objects/x"), "x");
    writeFileSync(path.join(root, "cache/entry"), "x");
    writeFileSync(path.join(root, "a/b/spec.yaml"), "x");
    await events.until((p) => p === path.join(root, "a/b/spec.yaml"));

    mkdirSync(path.join(root, "c/d"), { recursive: true });
    await events.until((p) => p === path.join(root, "c"));
    await watcher.settled();
    writeFileSync(path.join(root, "c/d/new.py"), "x");
    await events.until((p) => p === path.join(root, "c/d/new.py"));
    expect(watcher.watchedDirectories()).toContain(path.join(root, "c/d"));
    expect(events.seen.filter((p) => /node_modules|\.git|cache/.test(p))).toEqual([]);
  });

  it("follows a plan: drops what it no longer names, watches a folder alone", async () => {
    const root = tree();
    const watcher = new TreeWatcher(() => {});
    closers.push(() => watcher.close());
    watcher.update({ trees: [root], folders: [path.join(root, "a")] });
    await watcher.settled();
    expect(watcher.watchedDirectories()).toHaveLength(4); // root, a, a/b, cache
    watcher.update({ trees: [], folders: [path.join(root, "a")] });
    expect(watcher.watchedDirectories()).toEqual([path.join(root, "a")]);
    watcher.close();
    expect(watcher.watchedDirectories()).toEqual([]);
  });

  it("normalises a plan: no tree inside a tree, no folder inside a tree", () => {
    expect(normalisePlan({ trees: ["/p/a", "/p", "/q"], folders: ["/p/a/b", "/r", "/r"] })).toEqual({
      trees: ["/p", "/q"],
      folders: ["/r"],
    });
  });
});

describe("LiveModel", () => {
  async function open() {
    const dir = copyFixture("mcp-live");
    const { live, diagnostics } = await LiveModel.open([path.join(dir, "speky.yaml")], { cache: false });
    expect(live).not.toBeNull();
    closers.push(() => live!.stopWatching());
    return { dir, live: live!, diagnostics };
  }

  it("swaps one frozen state per reload; a state held by a call never changes", async () => {
    const { dir, live } = await open();
    const held: LiveState = live.snapshot();
    expect(Object.isFrozen(held)).toBe(true);
    const swaps: boolean[] = [];
    live.on("swapped", (_model, idsChanged) => swaps.push(idsChanged));

    appendFileSync(path.join(dir, "specs/requirements.yaml"), "  - id: REQ-MORE\n    long: More.\n");
    await live.reload();
    expect(swaps).toEqual([true]);
    expect(live.current.requirementIds).toContain("REQ-MORE");
    expect(held.model.requirementIds).not.toContain("REQ-MORE");
    expect(live.snapshot()).not.toBe(held);

    // Nothing changed: a new model all the same, with the same IDs.
    await live.reload();
    expect(swaps).toEqual([true, false]);
  });

  // speky:speky-ts#TLIVE-WATCH-CATCH-UP
  it("reloads for a change made after the load read the files and before they were watched", async () => {
    const { dir, live } = await open();
    // The server's window: loaded, not yet watching (its watch walks the trees while it answers).
    appendFileSync(path.join(dir, "specs/requirements.yaml"), "  - id: REQ-BETWEEN\n    long: Written before the watch.\n");
    const swapped = new Promise<readonly string[]>((resolve) => live.once("swapped", (model: Model) => resolve(model.requirementIds)));
    live.startWatching();
    expect(await swapped).toContain("REQ-BETWEEN");
  });

  // speky:speky-ts#TLIVE-WATCH-CATCH-UP
  it("reloads for a code file edited in place after the scan read it and before it was watched", async () => {
    const { dir, live } = await open();
    // Written in place: the folder's own times do not change, only the file's.
    const file = path.join(dir, "src/auth.py");
    writeFileSync(file, readFileSync(file, "utf8").replace("live#REQ-LOGN", "live#REQ-EXPORT"));
    const swapped = new Promise<Model>((resolve) => live.once("swapped", resolve));
    live.startWatching();
    expect((await swapped).codeReferences.map((r) => r.id)).toContain("REQ-EXPORT");
  });

  // speky:speky-ts#TLIVE-WATCH-CATCH-UP
  it("watches the trees once the first scan is done, and swaps nothing when nothing changed", async () => {
    const dir = copyFixture("mcp-live");
    let walked = () => {};
    const reached = new Promise<void>((resolve) => (walked = resolve));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const afterWalk = () => {
      walked();
      return held;
    };
    const opened = await LiveModel.open([path.join(dir, "speky.yaml")], { cache: false }, { background: true, afterWalk });
    const live = opened.live!;
    expect(live).not.toBeNull();
    closers.push(() => live.stopWatching());
    await reached;
    let swaps = 0;
    live.on("swapped", () => swaps++);
    live.startWatching();
    // Mid-scan: the folders of the spec files read, nothing else; the trees wait for the scan.
    expect(live.watchedDirectories()).toEqual([dir, path.join(dir, "specs")]);
    release();
    await live.whenScanned();
    await live.watchSettled();
    expect(live.watchedDirectories()).toEqual([dir, ...["notes", "specs", "src"].map((d) => path.join(dir, d))]);
    expect(live.current.codeReferences.map((r) => r.id)).toContain("REQ-LOGN");
    expect(swaps).toBe(0);
  });

  it("coalesces reloads asked for while one runs into one more", async () => {
    const { live } = await open();
    let swaps = 0;
    live.on("swapped", () => swaps++);
    await Promise.all([live.reload(), live.reload(), live.reload(), live.reload()]);
    expect(swaps).toBe(2);
  });

  it("keeps the last good model when a reload fails, and reports why", async () => {
    const { dir, live, diagnostics } = await open();
    const good = live.current;
    const file = path.join(dir, "specs/tests.yaml");
    const text = readFileSync(file, "utf8");
    const rejected: unknown[] = [];
    live.on("rejected", (problems) => rejected.push(problems));

    writeFileSync(file, text.replace("ref: [REQ-TIMEOUT]", "ref: [REQ-NONE]"));
    await live.reload();
    expect(live.current).toBe(good);
    expect(live.stale).toBe(true);
    const error = {
      file: "specs/tests.yaml",
      line: 16,
      column: 11,
      severity: "error",
      message: "unknown ref 'REQ-NONE' (no requirement or test has this ID)",
    };
    expect(rejected).toEqual([[...diagnostics, error]]);
    const state = live.snapshot();
    expect(statusOf(state)).toEqual({
      loaded_at: state.loadedAt.toISOString(),
      files: 6,
      requirements: 4,
      tests: 2,
      code_references: 5,
      problems: [...diagnostics, error],
    });
    expect(staleNote(state)).toBe(
      `specs/tests.yaml:16:11: error: unknown ref 'REQ-NONE' (no requirement or test has this ID) — serving the model loaded at ${state.loadedAt.toISOString()}`,
    );

    writeFileSync(file, text);
    await live.reload();
    expect(live.stale).toBe(false);
    expect(live.current).not.toBe(good);
    expect(staleNote(live.snapshot())).toBeNull();
  });

  it("counts the other errors in the note", () => {
    const e = (line: number) => ({ file: "a.yaml", line, column: 1, severity: "error" as const, message: `bad ${line}` });
    const state = { model: null as never, loadedAt: new Date(0), problems: [e(1), e(2), e(3)], stale: true, scanning: null };
    expect(staleNote(state)).toBe("a.yaml:1:1: error: bad 1 (and 2 more errors) — serving the model loaded at 1970-01-01T00:00:00.000Z");
  });
});

describe("pageOf", () => {
  const full = new Listing({ first: [1, 2, 3], second: lazy([4, 5], (n) => n), other: "kept" });
  const fields = ["first", "second"];

  it("answers whole when nothing is cut", () => {
    expect(pageOf("t", {}, full, fields, {})).toEqual({ whole: true });
    expect(pageOf("t", {}, full, fields, { limit: 5 })).toEqual({ whole: true });
    expect(materialize(full.structured)).toEqual({ first: [1, 2, 3], second: [4, 5], other: "kept" });
  });

  it("cuts the concatenation of the lists, keeping every field in its place", () => {
    const first = pageOf("t", {}, full, fields, { limit: 2 }) as { structured: Record<string, unknown> };
    expect(first.structured).toEqual({ first: [1, 2], second: [], other: "kept", nextCursor: expect.any(String) });
    const second = pageOf("t", {}, full, fields, { limit: 2, cursor: first.structured.nextCursor as string }) as {
      structured: Record<string, unknown>;
    };
    expect(second.structured).toEqual({ first: [3], second: [4], other: "kept", nextCursor: expect.any(String) });
    expect(Object.keys(second.structured)).toEqual(["first", "second", "other", "nextCursor"]);
    const last = pageOf("t", {}, full, fields, { cursor: second.structured.nextCursor as string });
    expect(last).toEqual({ structured: { first: [], second: [5], other: "kept" } });
  });

  // speky:speky-ts#TMEM-LAZY-PAGES
  it("digests the JSON text of the whole answer, lazy lists as they would be written", () => {
    const text = JSON.stringify({ first: [1, 2, 3], second: [4, 5], other: "kept" });
    const expected = createHash("sha256").update(text).digest("base64url").slice(0, 16);
    expect(full.digest()).toBe(expected);
    expect(new Listing({ a: lazy([{ x: "é\n" }, { x: undefined }], (o) => o), b: undefined, c: lazy([], (n) => n) }).digest()).toBe(
      createHash("sha256")
        .update(JSON.stringify({ a: [{ x: "é\n" }, {}], c: [] }))
        .digest("base64url")
        .slice(0, 16),
    );
  });

  it("uses the default page size when no limit is given", () => {
    const page = pageOf("t", {}, full, fields, {}, 4) as { structured: Record<string, unknown> };
    expect(page.structured).toEqual({ first: [1, 2, 3], second: [4], other: "kept", nextCursor: expect.any(String) });
  });

  it("cuts a page at MAX_PAGE_CHARS of items, whatever the limit, shaping only the items it answers", () => {
    const shaped: number[] = [];
    const long = "x".repeat(1000);
    const big = new Listing({
      items: lazy(
        Array.from({ length: 5000 }, (_, i) => i),
        (i) => {
          shaped.push(i);
          return { i, long };
        },
      ),
    });
    const first = pageOf("t", {}, big, ["items"], { limit: 1e9 }) as { structured: { items: { i: number }[]; nextCursor: string } };
    const perItem = JSON.stringify({ i: 1000, long }).length + 1;
    expect(first.structured.items.length).toBeGreaterThan(MAX_PAGE_CHARS / perItem - 10);
    expect(JSON.stringify(first.structured.items).length).toBeLessThanOrEqual(MAX_PAGE_CHARS);
    expect(first.structured.items.at(-1)!.i).toBe(first.structured.items.length - 1);
    shaped.length = 0;
    const second = pageOf("t", {}, big, ["items"], { limit: 10, cursor: first.structured.nextCursor }) as {
      structured: { items: { i: number }[] };
    };
    expect(second.structured.items.map((item) => item.i)).toEqual(Array.from({ length: 10 }, (_, k) => first.structured.items.length + k));
    // The digest (computed once, at the first cut) is not redone: only the page's items were shaped.
    expect(shaped).toHaveLength(10);
  });

  it("refuses forged cursors", () => {
    const first = pageOf("t", {}, full, fields, { limit: 1 }) as { structured: { nextCursor: string } };
    const { q, a } = JSON.parse(Buffer.from(first.structured.nextCursor, "base64url").toString()) as { q: string; a: string };
    expect(() => pageOf("t", {}, full, fields, { cursor: encodeCursor({ o: 99, q, a }) })).toThrow(/^Stale cursor/);
    expect(() => pageOf("t", {}, full, fields, { cursor: encodeCursor({ o: -1, q, a }) })).toThrow(/^Invalid cursor '/);
    expect(() => pageOf("u", {}, full, fields, { cursor: first.structured.nextCursor })).toThrow(/other arguments of u/);
  });
});
