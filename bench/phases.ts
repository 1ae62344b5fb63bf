// The per-phase table of `npm run bench`: CPU time of one thread (process.cpuUsage, so that
// the figures hold on a loaded machine better than wall time) for each phase of a cold scan of
// the bench tree, run in a child process of its own. "before" runs the code path issue 14
// replaced, where the code still has it (whole-tree query, eager query compile, the cache key
// hashed on every run, fast-glob imported at start-up); "after" is what a scan runs today.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Query } from "web-tree-sitter";
import { cacheKey, computeCacheKey } from "../dist/scan/cache/cache-key.js";
import { markerIndexes, scanText, scanTextPrefix, scanTextWith } from "../dist/scan/engine/index.js";
import { windowFor } from "../dist/scan/engine/prefix.js";
import { languageForPath, languageForShebang } from "../dist/scan/grammar/languages.js";
import { loadLanguage, querySource } from "../dist/scan/grammar/runtime.js";
import { isPending, type PendingParse, readTask } from "../dist/scan/read/worker-task.js";
import { expandPaths } from "../dist/scan/walk/walk.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(HERE, "../bin/speky.js");
const TIME = "/usr/bin/time";

interface Phase {
  phase: string;
  before: number | null;
  after: number;
  note: string;
}

/** CPU milliseconds (user + system) of `work`, on this thread. */
function cpu<T>(work: () => T): [T, number] {
  const start = process.cpuUsage();
  const value = work();
  const used = process.cpuUsage(start);
  return [value, (used.user + used.system) / 1000];
}

async function cpuAsync<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(start);
  return [value, (used.user + used.system) / 1000];
}

/** CPU ms of a child process (user + system from /usr/bin/time), best of 3. */
function childCpu(args: string[]): number | null {
  if (!existsSync(TIME)) return null;
  let bestMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(TIME, ["-f", "@@cpu %U %S", process.execPath, ...args], { encoding: "utf8" });
    const m = /@@cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? "");
    if (m) bestMs = Math.min(bestMs, (Number(m[1]) + Number(m[2])) * 1000);
  }
  return Number.isFinite(bestMs) ? bestMs : null;
}

async function measure(repo: string): Promise<Phase[]> {
  const phases: Phase[] = [];
  const bare = childCpu(["-e", "0"]);
  const version = childCpu([BIN, "--version"]);
  const eager = childCpu(["--import", "fast-glob", BIN, "--version"]);
  if (bare !== null && version !== null && eager !== null) {
    phases.push({
      phase: "module loading (--version over node -e 0)",
      before: eager - bare,
      after: version - bare,
      note: "fast-glob loaded on first manifest glob",
    });
  }
  const target = { project: "bench", root: repo, patterns: [] };
  const [walked, walkMs] = await cpuAsync(() => expandPaths(["."], repo, target, {}, { blocking: true }));
  phases.push({ phase: "walk", before: null, after: walkMs, note: `${walked.jobs.length} files (the walk module's)` });

  const readAll = (unstamped: boolean) => {
    const out: PendingParse[] = [];
    for (const absPath of walked.jobs.absPaths) {
      const read = readTask({ absPath, cached: null, unstamped });
      if (isPending(read)) out.push(read);
    }
    return out;
  };
  const [, stampedMs] = cpu(() => readAll(false));
  const [pending, readMs] = cpu(() => readAll(true));
  phases.push({
    phase: "read + marker search",
    before: stampedMs,
    after: readMs,
    note: `${pending.length} files hold the marker; no fstat without a cache`,
  });

  const files: { absPath: string; text: string; language: string }[] = [];
  for (const p of pending) {
    const text = p.content.toString("utf8");
    const language = languageForPath(p.absPath) ?? languageForShebang(text);
    if (language) files.push({ absPath: p.absPath, text, language });
  }
  const languages = [...new Set(files.map((f) => f.language))].sort();
  const loaded = new Map(await Promise.all(languages.map(async (id) => [id, await loadLanguage(id)] as const)));

  // Query compile: eager compiled every loaded grammar's query at load; now the first query compiles it.
  const [, compileMs] = cpu(() => {
    for (const id of languages) new Query(loaded.get(id)!.parser.language!, querySource(loaded.get(id)!.row));
  });
  phases.push({
    phase: "query compile",
    before: compileMs,
    after: compileMs,
    note: `${languages.length} grammars used here; a C header's unused C++ fallback no longer compiles`,
  });
  for (const id of languages) void loaded.get(id)!.query; // compiled now, outside the timings below

  let bytes = 0;
  const [trees, parseMs] = cpu(() =>
    files.map((f) => {
      bytes += f.text.length;
      return loaded.get(f.language)!.parser.parse(f.text)!;
    }),
  );
  phases.push({ phase: "tree-sitter parse", before: null, after: parseMs, note: `${(bytes / 1e6).toFixed(1)} M characters, whole files` });

  const [, wholeMs] = cpu(() =>
    files.forEach((f, i) => {
      scanTextWith(loaded.get(f.language)!, f.absPath, f.text, trees[i], true);
    }),
  );
  const [, rangedMs] = cpu(() =>
    files.forEach((f, i) => {
      scanTextWith(loaded.get(f.language)!, f.absPath, f.text, trees[i]);
    }),
  );
  phases.push({ phase: "query + resolution", before: wholeMs, after: rangedMs, note: "whole tree → around the tags" });
  for (const t of trees) t.delete();

  const [, wholeScanMs] = await cpuAsync(async () => {
    for (const f of files) await scanText(f.absPath, f.language, f.text, { prefix: false });
  });
  const [, prefixScanMs] = await cpuAsync(async () => {
    for (const f of files) await scanText(f.absPath, f.language, f.text);
  });
  let fromPrefix = 0;
  let windows = 0;
  for (const f of files) {
    if (await scanTextPrefix(f.absPath, f.language, f.text)) fromPrefix++;
    if (windowFor(loaded.get(f.language)!, f.text, markerIndexes(f.text))) windows++;
  }
  phases.push({
    phase: "parse + query + resolution (scanText)",
    before: wholeScanMs,
    after: prefixScanMs,
    note: `whole files → a window or prefix where it answers the same (${fromPrefix} of ${files.length} files, ${windows} with a window tried; the others then parse whole)`,
  });

  const [, keyMs] = cpu(() => cacheKey());
  const [, hashMs] = cpu(() => computeCacheKey());
  phases.push({ phase: "cache key", before: hashMs, after: keyMs, note: "hashed per run → read from the build (fingerprint of stats)" });
  return phases;
}

/** The table's lines: the measurement runs in a child process (a clean module cache and heap). */
// speky:speky-ts#BENCH-SPEED
export function phaseTable(repo: string): string[] {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), repo], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) return [`phases: failed (${r.stderr.trim().split("\n").slice(-1)[0] ?? r.status})`];
  const phases = JSON.parse(r.stdout) as Phase[];
  const ms = (n: number | null) => (n === null ? "—" : `${Math.round(n)} ms`).padStart(9);
  return [
    `${"phase".padEnd(44)}${"before".padStart(9)}${"after".padStart(9)}  note`,
    ...phases.map((p) => `${p.phase.padEnd(44)}${ms(p.before)}${ms(p.after)}  ${p.note}`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2]) {
  process.stdout.write(JSON.stringify(await measure(path.resolve(process.argv[2]))));
}
