// The scan cache under fire: the real `speky scan` process, SIGKILLed at each phase of its life in
// turn (before its walk, after it, in its reads and worker pool, around its cache write: the
// phases it traces on stderr with SPEKY_SCAN_TRACE=1), sometimes two at once, while the tree
// changes between runs in the ways that fool caches (same size and mtime, a file added to a
// cached directory listing, a file deleted, a tag moved). After each round, a complete cached
// run must answer exactly what the tree holds. (test/pipeline/scan-cache.test.ts kills a writer looping
// on the cache write itself; this suite kills whole CLI runs anywhere.)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SPEKY_BIN, tempDir } from "../support/process.js";

const T = "speky" + ":";
const ROUNDS = Number(process.env.HARDEN_CACHE_ROUNDS ?? 8);
const DIRS = 25;
const FILES_PER_DIR = 100; // 2,500 files: enough for the worker pool to start

const scratch = tempDir("speky-hardening-cache-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tree = path.join(scratch, "tree");
const cacheDir = path.join(scratch, "cache");
const env = { ...process.env, SPEKY_CACHE_DIR: cacheDir, SPEKY_SCAN_TRACE: "1" };

/** A seeded generator: a failing round replays. */
let seed = Number(process.env.FUZZ_SEED ?? 20260405);
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
}

/** What the tree holds: file (relative to the tree) → its tag's ID, or null. */
const truth = new Map<string, string | null>();
let serial = 0;

function content(id: string | null, n: number): string {
  return `${id ? `# ${T}p#${id}\n` : ""}def f${n}():\n    return ${n}\n`;
}

function put(rel: string, id: string | null, n = 0): void {
  const file = path.join(tree, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content(id, n));
  truth.set(rel, id);
}

function plant(): void {
  for (let d = 0; d < DIRS; d++) {
    for (let i = 0; i < FILES_PER_DIR; i++) put(`src/d${d}/m${i}.py`, i % 10 === 0 ? `T${d}-${i}` : null, i);
  }
}

/** The changes that fool caches, one at random. */
function change(): string {
  const files = [...truth.keys()];
  const pick = files[random(files.length)];
  const tagged = files.filter((f) => truth.get(f));
  switch (random(5)) {
    case 0: {
      // Same size, same mtime, different tag: only the ctime (and the bytes) tell.
      const rel = tagged[random(tagged.length)];
      const file = path.join(tree, rel);
      const before = statSync(file);
      const id = truth.get(rel)!;
      const swapped = (id.startsWith("X") ? "Y" : "X") + id.slice(1);
      writeFileSync(file, readFileSync(file, "utf8").replace(id, swapped));
      utimesSync(file, before.atime, before.mtime);
      expect(statSync(file).size).toBe(before.size);
      truth.set(rel, swapped);
      return `retag ${rel} in place`;
    }
    case 1: {
      // A new file in a directory whose listing the cache remembers.
      const rel = `src/d${random(DIRS)}/new${serial++}.py`;
      put(rel, `N${serial}`);
      return `add ${rel}`;
    }
    case 2: {
      unlinkSync(path.join(tree, pick));
      truth.delete(pick);
      return `delete ${pick}`;
    }
    case 3: {
      put(pick, truth.get(pick) ? null : `G${serial++}`, 7);
      return `toggle the tag of ${pick}`;
    }
    default: {
      const dir = `src/fresh${serial++}`;
      put(`${dir}/a.py`, `F${serial}`);
      return `add directory ${dir}`;
    }
  }
}

const scanArgs = [SPEKY_BIN, "scan", "--project", "p", "src"];

function expectedReferences(): string[] {
  return [...truth]
    .filter(([, id]) => id)
    .map(([rel, id]) => `${rel} ${id}`)
    .sort();
}

function answered(stdout: string): string[] {
  const output = JSON.parse(stdout) as { references: { file: string; id: string }[]; diagnostics: unknown[] };
  expect(output.diagnostics).toEqual([]);
  return output.references.map((r) => `${r.file} ${r.id}`).sort();
}

/**
 * Phases `speky scan` traces on stderr, in order: each round kills a run as it reaches one of
 * them (the kill lands just after), so every phase is hit, whatever the machine's speed.
 */
const PHASES = ["start", "walk:", "cache:", "read and parse"];

/**
 * Starts a cached scan and kills it once it reports `phase` (it may finish first);
 * `atWalk` runs when the scan has walked the tree, before it reads.
 */
// speky:speky-ts#TINSTALL-DETERMINISTIC
function killedRun(phase: string, atWalk?: () => void): Promise<void> {
  const child = spawn(process.execPath, scanArgs, { cwd: tree, env, stdio: ["ignore", "ignore", "pipe"] });
  let traced = "";
  let walked = false;
  child.stderr.on("data", (chunk: Buffer) => {
    traced += chunk.toString();
    if (!walked && traced.includes("speky scan: walk:")) {
      walked = true;
      atWalk?.();
    }
    if (traced.includes(`speky scan: ${phase}`)) child.kill("SIGKILL");
  });
  return new Promise<void>((resolve) => child.once("exit", () => resolve()));
}

describe("scan cache under SIGKILL", () => {
  it("answers what the tree holds after runs killed at each phase, whatever changed between", async () => {
    plant();
    // A first complete run: the cache exists from then on.
    const cold = spawnSync(process.execPath, scanArgs, { cwd: tree, env, encoding: "utf8", maxBuffer: 64 << 20 });
    expect(cold.status, cold.stderr).toBe(0);
    expect(answered(cold.stdout)).toEqual(expectedReferences());
    let warmHits = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const log = [change(), change()];
      // One run killed at a phase; every other round, a second one racing it, killed at another.
      // A change lands between the first run's walk and its reads (or after it, killed before).
      let changed = false;
      const changeOnce = () => {
        if (!changed) log.push(change());
        changed = true;
      };
      const kills = [killedRun(PHASES[round % PHASES.length], changeOnce)];
      if (round % 2 === 1) kills.push(killedRun(PHASES[(round + 2) % PHASES.length]));
      await Promise.all(kills);
      changeOnce();
      const run = spawnSync(process.execPath, scanArgs, { cwd: tree, env, encoding: "utf8", maxBuffer: 64 << 20 });
      expect(run.status, `round ${round}: ${run.stderr}`).toBe(0);
      expect(answered(run.stdout), `round ${round} after ${log.join(", ")}`).toEqual(expectedReferences());
      warmHits += Number(/cache: (\d+) unchanged/.exec(run.stderr)?.[1] ?? 0);
    }
    // The cache was used (most files answered from it), not merely ignored.
    expect(warmHits).toBeGreaterThan(ROUNDS * 1000);
    // Nothing but the signing key, cache files and killed writers' temporary files in the cache directory.
    for (const name of readdirSync(cacheDir)) expect(name).toMatch(/^(key|scan-[0-9a-f]+\.json(\.\d+\.[a-z0-9]+\.tmp)?)$/);
  });
});
