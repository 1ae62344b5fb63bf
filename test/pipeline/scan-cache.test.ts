// The persistent scan cache: same answers as a fresh scan whatever happened to the files or to
// the cache file, never a file written in the scanned tree.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  watch,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { runScan } from "../../src/commands/scan.js";
import { type CacheRun, cacheDir } from "../../src/scan/cache/cache.js";
import { cacheWritten, scan, scanPaths } from "../../src/scan/scan.js";
import type { ScanResult } from "../../src/scan/types.js";
import { REPO } from "../scan/scan-helpers.js";
import { runSpeky } from "../support/process.js";
import { untilStampsTrusted } from "../support/racy-window.js";

/** Files enough for a warm scan's stamps to be most of its work (the bench tree has 25,000). */
const MANY = 4000;

const base = mkdtempSync(path.join(os.tmpdir(), "speky-cache-test-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let tree: string;
let cache: string;
const savedEnv = { ...process.env };

function write(rel: string, content: string | Buffer): string {
  const file = path.join(tree, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** A small polyglot tree: tagged files, untagged ones, and the awkward cases. */
function plantTree(): void {
  write("src/a.py", "# speky:p#PY1\ndef alpha():\n    return 1\n");
  write("src/b.ts", "// speky:p#TS1\nexport function beta(): number {\n  return 2;\n}\n");
  write("src/c.go", "package c\n\n// speky:p#GO1\nfunc Gamma() {}\n");
  write("src/d.js", 'const s = "speky:p#INSTRING";\n');
  write("src/notes.md", "speky:p#MD\n");
  write("src/blob.py", Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from("# speky:p#BIN\n")]));
  for (let i = 0; i < 40; i++) write(`lib/m${i}.py`, `def f${i}():\n    return ${i}\n`);
}

/** What the last cached scan's cache did (each cached scan here asks, through `told`). */
let lastRun: CacheRun | null = null;
const lastCacheRun = () => lastRun;
const told = {
  cacheSaved: (run: CacheRun) => {
    lastRun = run;
  },
};

const strip = (r: ScanResult) => JSON.stringify({ ...r, stats: { ...r.stats, ms: 0 } });
async function scanTree(cached: boolean): Promise<ScanResult> {
  const result = await scanPaths("p", ["src", "lib"], tree, { cache: cached, ...told });
  await cacheWritten();
  return result;
}

/** MANY more files under many/ (after lib/ and src/ in path order), their stamps settled. */
async function plantMany(): Promise<void> {
  for (let i = 0; i < MANY; i++) write(`many/${String(i).padStart(5, "0")}.py`, `def g${i}():\n    return ${i % 10}\n`);
  await settle();
}

/** A cached scan of the tree with many/. */
async function scanMany(): Promise<ScanResult> {
  const result = await scanPaths("p", ["src", "lib", "many"], tree, { cache: true, ...told });
  await cacheWritten();
  return result;
}

/** Every path under `dir`, dot files included. */
function listAll(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = path.join(rel, e.name);
    return e.isDirectory() ? [`${child}/`, ...listAll(dir, child)] : [child];
  });
}

function cacheFiles(): string[] {
  return existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith(".json")) : [];
}

/**
 * Until the clock is past every stamp of the tree by more than the cache's racy window (a file
 * written just before a scan is re-read by the next one): the state the cache checks, not a guess.
 */
// speky:speky-ts#TINSTALL-DETERMINISTIC
async function settle(): Promise<void> {
  // Through links, as a scan stats (a dangling one has no stamp).
  await untilStampsTrusted([tree, ...listAll(tree).map((rel) => path.join(tree, rel))]);
}

beforeEach(async () => {
  lastRun = null;
  const dir = mkdtempSync(path.join(base, "case-"));
  tree = path.join(dir, "tree");
  cache = path.join(dir, "cache");
  process.env.SPEKY_CACHE_DIR = cache;
  plantTree();
  await settle();
});

afterEach(() => {
  process.env = { ...savedEnv };
});

describe("scan cache", () => {
  it("returns on a hit the output of a fresh scan, reading no file", async () => {
    const fresh = await scanTree(false);
    const files = fresh.stats.files;
    expect(cacheFiles()).toEqual([]);
    const first = strip(await scanTree(true));
    expect(lastCacheRun()).toMatchObject({ hits: 0, misses: files, written: true });
    const second = await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ hits: files, misses: 0, written: false, replayed: true });
    expect(first).toBe(strip(fresh));
    expect(strip(second)).toBe(strip(fresh));
    expect(second.references.map((r) => r.id)).toEqual(["PY1", "TS1", "GO1"]);
    expect(second.diagnostics.length).toBeGreaterThan(0);
  });

  it("rescans an edited, added or deleted file", async () => {
    const files = (await scanTree(true)).stats.files;
    write("src/a.py", "# speky:p#PY2\ndef alpha():\n    return 1\n\n# speky:p#PY3\ndef delta():\n    pass\n");
    write("lib/m3.py", "# speky:p#NEW\ndef f3():\n    return 3\n");
    rmSync(path.join(tree, "src/c.go"));
    // New files deep down and in a new folder: the remembered walk must not hide them.
    write("lib/deep/er/added.py", "# speky:p#DEEP\ndef added():\n    pass\n");
    const result = await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ hits: files - 3, misses: 3, written: true });
    expect(strip(result)).toBe(strip(await scanTree(false)));
    expect(result.references.map((r) => `${r.file}:${r.id}:${r.symbol}`)).toEqual([
      "lib/deep/er/added.py:DEEP:added",
      "lib/m3.py:NEW:f3",
      "src/a.py:PY2:alpha",
      "src/a.py:PY3:delta",
      "src/b.ts:TS1:beta",
    ]);
    await settle();
    write("lib/deep/er/second.py", "# speky:p#SECOND\ndef second():\n    pass\n");
    expect((await scanTree(true)).references.map((r) => r.id)).toContain("SECOND");
  });

  // speky:speky-ts#TSCAN-REPLAY
  it("replays an unchanged tree, and only an unchanged tree scanned the same way", async () => {
    const fresh = strip(await scanTree(false));
    await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ replayed: false, written: true });
    expect(strip(await scanTree(true))).toBe(fresh);
    expect(lastCacheRun()).toMatchObject({ replayed: true, written: false });
    // A file added to a folder: its folder's stamp tells, the walk is done again.
    write("lib/m40.py", "# speky:p#ADDED\ndef f40():\n    return 40\n");
    const added = await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ replayed: false, written: true });
    expect(strip(added)).toBe(strip(await scanTree(false)));
    expect(added.references.map((r) => r.id)).toContain("ADDED");
    // Stamps taken within the racy window of the scan that cached them are checked again once
    // (cache.ts RACY_MS): the second scan after the change is the first replayed.
    await settle();
    await scanTree(true);
    await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ replayed: true });
    // A file's bytes changed, its folder not: its own stamp tells.
    write("src/a.py", "# speky:p#PY9\ndef alpha():\n    return 1\n");
    const edited = await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ replayed: false, misses: 1 });
    expect(edited.references.map((r) => r.id)).toEqual(["ADDED", "PY9", "TS1", "GO1"]);
    await settle();
    await scanTree(true);
    // A file named on its own is no walk's: never replayed, still answered from the cache.
    const named = async () => {
      const result = await scanPaths("p", ["src", "lib/m1.py"], tree, { cache: true, ...told });
      await cacheWritten();
      return result;
    };
    const namedFresh = strip(await scanPaths("p", ["src", "lib/m1.py"], tree, { cache: false }));
    await named();
    expect(strip(await named())).toBe(namedFresh);
    expect(lastCacheRun()).toMatchObject({ replayed: false, misses: 0 });
    // A manifest's target (patterns under its root): replayed too; two targets are not.
    const one = [{ project: "p", root: tree, patterns: ["src/**/*.py", "lib"] }];
    const two = [...one, { project: "q", root: tree, patterns: ["src/*.ts"] }];
    for (const targets of [one, two]) {
      const expected = strip(await scan(targets));
      for (let run = 0; run < 2; run++) {
        expect(strip(await scan(targets, { cache: true, ...told }))).toBe(expected);
        await cacheWritten();
      }
      expect(lastCacheRun()).toMatchObject({ replayed: targets === one, misses: 0 });
    }
  });

  // speky:speky-ts#TSCAN-REPLAY
  it("does not replay once an ignore file changed what the walk reaches", async () => {
    expect(spawnSync("git", ["init", "-q", tree]).status).toBe(0);
    write(".gitignore", "gen/\n");
    write("lib/gen/made.py", "# speky:p#GEN\ndef made():\n    pass\n");
    await settle();
    const ids = async () => (await scanTree(true)).references.map((r) => r.id);
    expect(await ids()).not.toContain("GEN");
    await ids();
    expect(lastCacheRun()).toMatchObject({ replayed: true });
    // The rule dropped: the same folders, another answer.
    write(".gitignore", "# nothing ignored\n");
    expect(await ids()).toContain("GEN");
    expect(lastCacheRun()).toMatchObject({ replayed: false });
    await settle();
    await ids();
    await ids();
    expect(lastCacheRun()).toMatchObject({ replayed: true });
    // And back: the file leaves the answer at once.
    write(".gitignore", "gen/\n");
    expect(await ids()).not.toContain("GEN");
    expect(lastCacheRun()).toMatchObject({ replayed: false });
  });

  // speky:speky-ts#TSCAN-REPLAY-LINKS
  it("replays a tree with links, and tells every change a link can bring", async () => {
    // A git work tree: the project's boundary, which its links stay within (outside git, each
    // folder named is a boundary of its own, and a link out of it is refused).
    execFileSync("git", ["init", "-q", tree], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
    write("elsewhere/far.py", "# speky:p#FAR\ndef far():\n    pass\n");
    write("elsewhere/other.py", "# speky:p#OTHER\ndef other():\n    pass\n");
    symlinkSync(path.join(tree, "elsewhere"), path.join(tree, "lib/linked")); // a folder
    symlinkSync(path.join(tree, "src/a.py"), path.join(tree, "lib/again.py")); // a file another walk lists
    symlinkSync(path.join(tree, "elsewhere/far.py"), path.join(tree, "src/far-link.py")); // a file elsewhere
    symlinkSync(path.join(tree, "gen/later.py"), path.join(tree, "src/later.py")); // dangling
    await settle();
    /** A warm scan: its IDs, after checking it answers as a fresh scan. */
    const warm = async () => {
      const result = await scanTree(true);
      const { replayed } = lastCacheRun()!;
      expect(strip(result)).toBe(strip(await scanTree(false)));
      return { ids: result.references.map((r) => r.id), replayed };
    };
    await warm();
    expect(await warm()).toMatchObject({ replayed: true });
    // A file changed behind a folder link and a file link: its stamp tells.
    write("elsewhere/far.py", "# speky:p#FAR2\ndef far():\n    pass\n");
    expect(await warm()).toMatchObject({ replayed: false, ids: expect.arrayContaining(["FAR2"]) });
    // A file added behind a folder link: the linked folder's stamp tells.
    write("elsewhere/new.py", "# speky:p#NEWFAR\ndef new_far():\n    pass\n");
    expect(await warm()).toMatchObject({ replayed: false, ids: expect.arrayContaining(["NEWFAR"]) });
    await settle();
    await warm();
    expect(await warm()).toMatchObject({ replayed: true });
    // The dangling link's target appears: its missing stamp tells.
    write("gen/later.py", "# speky:p#LATER\ndef later():\n    pass\n");
    expect(await warm()).toMatchObject({ replayed: false, ids: expect.arrayContaining(["LATER"]) });
    // A link retargeted: its folder's stamp tells.
    await settle();
    await warm();
    rmSync(path.join(tree, "lib/linked"));
    symlinkSync(path.join(tree, "gen"), path.join(tree, "lib/linked"));
    const retargeted = await warm();
    expect(retargeted.replayed).toBe(false);
    expect(retargeted.ids).not.toContain("NEWFAR");
    await settle();
    await warm();
    expect(await warm()).toMatchObject({ replayed: true });
  });

  // speky:speky-ts#TSCAN-WARM-MANY
  it("tells changed files among thousands, in-process and through the command line", async () => {
    await plantMany();
    const files = (await scanMany()).stats.files;
    expect(files).toBeGreaterThan(MANY);
    await scanMany();
    expect(lastCacheRun()).toMatchObject({ hits: files, misses: 0 });
    // One change in each half: same size, old mtime (only ctime tells), and one file gone.
    for (const i of [7, MANY - 7]) {
      const file = path.join(tree, `many/${String(i).padStart(5, "0")}.py`);
      const before = statSync(file);
      write(path.relative(tree, file), `# speky:p#M${i}\ndef g${i}():\n    pass\n`.slice(0, before.size).padEnd(before.size, " "));
      utimesSync(file, before.atime, before.mtime);
    }
    rmSync(path.join(tree, `many/${String(MANY - 100).padStart(5, "0")}.py`));
    const warm = await scanMany();
    expect(lastCacheRun()).toMatchObject({ hits: files - 3, misses: 2 });
    expect(warm.references.map((r) => r.id)).toEqual(expect.arrayContaining([`M7`, `M${MANY - 7}`]));
    // A file added to a folder: the folder's stamp tells the walk changed.
    write("many/added.py", "# speky:p#ADDED\ndef added():\n    pass\n");
    const grown = await scanMany();
    expect(grown.references.map((r) => r.id)).toContain("ADDED");
    process.env.SPEKY_SCAN_WORKERS = "1";
    const fresh = await scanPaths("p", ["src", "lib", "many"], tree, { cache: false });
    expect(strip(grown)).toBe(strip(fresh));
    delete process.env.SPEKY_SCAN_WORKERS;
    // The command line in the tree (its stamps from src/fs/fast-stat.ts): a change is told as in-process.
    await settle();
    const cli = (...extra: string[]) =>
      runSpeky(["scan", "--project", "p", "src", "lib", "many", ...extra], tree, { SPEKY_CACHE_DIR: cache }).stdout.replace(
        /"ms": \d+/,
        "",
      );
    cli();
    cli();
    const last = path.join(tree, `many/${String(MANY - 7).padStart(5, "0")}.py`);
    const before = statSync(last);
    write(path.relative(tree, last), `# speky:p#LAST\ndef last():\n    pass\n`.slice(0, before.size).padEnd(before.size, " "));
    utimesSync(last, before.atime, before.mtime);
    const answer = cli();
    expect(answer).toContain('"LAST"');
    expect(answer).toBe(cli("--no-cache"));
  });

  // speky:speky-ts#TSCAN-REPLAY
  it("tells a file changed in place in any chunk of a replay's rows, the first and the last", async () => {
    await plantMany();
    await scanMany();
    await scanMany();
    expect(lastCacheRun()).toMatchObject({ replayed: true });
    // Rows are in path order: lib/ first, many/ last. Same size, old mtime: only ctime tells, and no folder changes.
    for (const [rel, id] of [
      ["lib/m0.py", "FIRST"],
      [`many/${String(MANY - 1).padStart(5, "0")}.py`, "LAST"],
    ]) {
      const file = path.join(tree, rel);
      const before = statSync(file);
      write(rel, `# speky:p#${id}\n`.padEnd(before.size, " "));
      utimesSync(file, before.atime, before.mtime);
      const warm = await scanMany();
      expect(lastCacheRun(), rel).toMatchObject({ replayed: false, misses: 1 });
      expect(warm.references.map((r) => r.id)).toContain(id);
      // Its stamp was taken too close to that scan's start to be trusted (RACY_MS): read once
      // more, then replayed.
      await settle();
      await scanMany();
      await scanMany();
      expect(lastCacheRun(), rel).toMatchObject({ replayed: true });
    }
  });

  it("answers when a cached file's folder became a file and a file a link loop", async () => {
    write("lib/sub/x.py", "# speky:p#SUB\ndef x():\n    pass\n");
    await settle();
    await scanTree(true);
    await scanTree(true);
    rmSync(path.join(tree, "lib/sub"), { recursive: true });
    write("lib/sub", "not a folder\n");
    rmSync(path.join(tree, "lib/m2.py"));
    symlinkSync(path.join(tree, "lib/m2.py"), path.join(tree, "lib/m2.py"));
    const after = await scanTree(true);
    expect(after.references.map((r) => r.id)).not.toContain("SUB");
    expect(strip(after)).toBe(strip(await scanTree(false)));
  });

  it("rescans a file rewritten with the same size and its old mtime (ctime tells)", async () => {
    await scanTree(true);
    const file = path.join(tree, "src/b.ts");
    const before = statSync(file);
    write("src/b.ts", "// speky:p#TS9\nexport function beta(): number {\n  return 2;\n}\n");
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const result = await scanTree(true);
    expect(result.references.map((r) => r.id)).toContain("TS9");
    expect(strip(result)).toBe(strip(await scanTree(false)));
  });

  it("replays files whose names JSON escapes (a quote, a backslash, a control character) or are not ASCII", async () => {
    const names = ['q"uote', "back\\slash", "ctl\u0001x", "tab\tx", "café", "日本", "smile-\u{1F600}"];
    for (const name of names) write(`src/${name}.py`, "# speky:p#ODD\ndef odd():\n    pass\n");
    await settle();
    const fresh = strip(await scanTree(false));
    expect(fresh.match(/"ODD"/g)).toHaveLength(names.length);
    await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ written: true });
    await settle();
    // Every row found again by its walk: else the walk doesn't cover the cache, and no replay.
    expect(strip(await scanTree(true))).toBe(fresh);
    expect(lastCacheRun()).toMatchObject({ replayed: true, misses: 0 });
  });

  it("reads a file whose name the cache's paths can't hold (a newline) on every run, and never replays over it", async () => {
    write("src/new\nline.py", "# speky:p#ODD\ndef odd():\n    pass\n");
    await settle();
    const fresh = strip(await scanTree(false));
    expect(fresh.match(/"ODD"/g)).toHaveLength(1);
    await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ written: true });
    await settle();
    // Its walk is not remembered: listed again, the file read again, the rest from the cache.
    expect(strip(await scanTree(true))).toBe(fresh);
    expect(lastCacheRun()).toMatchObject({ replayed: false, misses: 1 });
  });

  it("reuses the parse of a touched file whose content is the same", async () => {
    const files = (await scanTree(true)).stats.files;
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(tree, "src/a.py"), later, later);
    const result = await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ hits: files - 1, misses: 1 });
    expect(strip(result)).toBe(strip(await scanTree(false)));
  });

  it("ignores a corrupt, truncated, tampered or foreign cache file", async () => {
    const fresh = strip(await scanTree(false));
    const files = (await scanTree(true)).stats.files;
    const [name] = cacheFiles();
    const file = path.join(cache, name);
    const good = readFileSync(file, "utf8");
    const nl = good.indexOf("\n");
    const header = JSON.parse(good.slice(0, nl)) as Record<string, unknown>;
    const variants: Record<string, string | Buffer> = {
      truncated: good.slice(0, Math.floor(good.length / 2)),
      "header only": good.slice(0, nl + 1),
      empty: "",
      garbage: Buffer.from([0xff, 0x00, 0x13, 0x37, 0x0a, 0x7b]),
      // A valid JSON body whose tag is changed: the checksum no longer matches.
      tampered: good.replace("PY1", "PY7"),
      "another version": JSON.stringify({ ...header, key: "0".repeat(64) }) + good.slice(nl),
    };
    for (const [label, content] of Object.entries(variants)) {
      writeFileSync(file, content);
      const result = await scanTree(true);
      expect(strip(result), label).toBe(fresh);
      expect(lastCacheRun(), label).toMatchObject({ hits: 0, written: true });
    }
    // …and the file rewritten by the last of those runs is valid again.
    await scanTree(true);
    expect(lastCacheRun()).toMatchObject({ hits: files, misses: 0 });
  });

  // speky:speky-ts#TSCAN-CACHE
  it("never leaves a cache that gives wrong answers when its writer is killed mid-write", async () => {
    // The writer scans (each round changes the churn file's bytes, not its tags, so each scan
    // writes the cache), then rewrites the cache a hundred times: most of its time is spent
    // writing, so that the kill lands mid-write.
    for (let i = 0; i < 400; i++) write(`lib/bulk/b${i}.py`, `def bulk_${i}():\n    return ${i}  # ${"x".repeat(200)}\n`);
    const churn = (n: number) => write("lib/churn.py", `# speky:p#CHURN\ndef churn():\n    return ${n % 10}\n`);
    churn(0);
    // The built modules, as the writer uses: the cache key covers the scanner's own code.
    const scanModule = pathToFileURL(path.join(REPO, "dist/scan/scan.js")).href;
    const cacheModule = pathToFileURL(path.join(REPO, "dist/scan/cache/cache.js")).href;
    const built = (await import(scanModule)) as typeof import("../../src/scan/scan.js");
    const builtCache = (await import(cacheModule)) as typeof import("../../src/scan/cache/cache.js");
    const scanBuilt = async (cached: boolean) => {
      const result = await built.scanPaths("p", ["src", "lib"], tree, { cache: cached, parallel: false, ...told });
      await built.cacheWritten();
      return result;
    };
    const fresh = strip(await scanBuilt(false));
    await settle();
    let hits = 0;
    const child = path.join(tree, "..", "writer.mjs");
    writeFileSync(
      child,
      [
        `import { readFileSync, writeFileSync } from "node:fs";`,
        `const { cacheWritten, scanPaths } = await import(${JSON.stringify(scanModule)});`,
        `const { readCacheFile, writeCacheFile } = await import(${JSON.stringify(cacheModule)});`,
        `const tree = ${JSON.stringify(tree)};`,
        `for (let n = 1; ; n++) {`,
        `  writeFileSync(tree + "/lib/churn.py", "# speky:p#CHURN\\ndef churn():\\n    return " + (n % 10) + "\\n");`,
        `  let file;`,
        `  await scanPaths("p", ["src", "lib"], tree, { cache: true, parallel: false, cacheSaved: (run) => (file = run.file) });`,
        `  await cacheWritten();`,
        `  const header = JSON.parse(readFileSync(file, "utf8").split("\\n")[0]);`,
        `  const cached = readCacheFile(file, header.scope);`,
        `  if (n === 1) process.stdout.write("ready\\n");`,
        `  for (let k = 0; k < 100; k++) writeCacheFile(file, header.scope, header.started, cached.entries());`,
        `}`,
      ].join("\n"),
    );
    // Six rounds at least, and until one kill has landed mid-write (a temporary file left).
    const tempFiles = () => readdirSync(cache).filter((f) => f.endsWith(".tmp")).length;
    for (let round = 0; round < 6 || (tempFiles() === 0 && round < 20); round++) {
      const proc = spawn(process.execPath, [child], { env: { ...process.env, SPEKY_CACHE_DIR: cache }, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        proc.stdout.once("data", () => resolve());
        proc.once("exit", (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
      });
      // At an event, not a clock: the kill is sent as soon as the writer opens its next
      // temporary file, so it lands inside that write or just after it.
      const exited = new Promise((r) => proc.once("exit", r));
      await new Promise<void>((resolve) => {
        const watcher = watch(cache, (_event, name) => {
          if (!name?.endsWith(".tmp")) return;
          watcher.close();
          proc.kill("SIGKILL");
          resolve();
        });
      });
      await exited;
      churn(0);
      for (const name of cacheFiles()) {
        // Whatever is under the cache's own name is whole: temp files are never read.
        const scope = JSON.parse(readFileSync(path.join(cache, name), "utf8").split("\n")[0]).scope as string;
        expect(builtCache.readCacheFile(path.join(cache, name), scope), `round ${round}`).not.toBeNull();
      }
      expect(strip(await scanBuilt(true)), `round ${round}`).toBe(fresh);
      hits += lastRun?.hits ?? 0;
    }
    // The writer's caches were used, not only ignored…
    expect(hits).toBeGreaterThan(0);
    // …and it was killed mid-write: its temporary files are left, never read.
    expect(tempFiles()).toBeGreaterThan(0);
  });

  it("writes only under SPEKY_CACHE_DIR, never in the scanned tree", async () => {
    const before = listAll(tree).sort();
    await scanTree(true);
    const targets = [{ project: "p", root: tree, patterns: ["src/**/*.py", "lib"] }];
    const first = await scan(targets, { cache: true, ...told });
    await cacheWritten();
    await settle();
    const again = await scan(targets, { cache: true, ...told });
    await cacheWritten();
    expect(lastCacheRun()).toMatchObject({ hits: first.stats.files, misses: 0 });
    expect(strip(again)).toBe(strip(first));
    expect(listAll(tree).sort()).toEqual(before);
    expect(cacheFiles()).toHaveLength(2);
    expect(cacheDir()).toBe(cache);
  });

  it("follows XDG_CACHE_HOME, then ~/.cache, when SPEKY_CACHE_DIR is not set", () => {
    expect(cacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/speky-ts");
    expect(cacheDir({ XDG_CACHE_HOME: "relative/ignored" })).toBe(path.join(os.homedir(), ".cache", "speky-ts"));
    expect(cacheDir({})).toBe(path.join(os.homedir(), ".cache", "speky-ts"));
    expect(cacheDir({ SPEKY_CACHE_DIR: "/y", XDG_CACHE_HOME: "/x" })).toBe("/y");
  });

  it("is bypassed by --no-cache, used by the CLI otherwise", async () => {
    await runScan(["--no-cache", "--project", "p", "src"], tree);
    await cacheWritten();
    expect(cacheFiles()).toEqual([]);
    const outcome = await runScan(["--project", "p", "src"], tree);
    await cacheWritten();
    expect(outcome.exitCode).toBe(0);
    expect(cacheFiles()).toHaveLength(1);
  });
});
