// The scan's speed as users meet it, paired with `rg -l` of the tag marker over the same files: the
// manifest scan (`speky scan speky.yaml`, what a project runs) and `speky scan --project`,
// cold (--no-cache), warm (cached) and, for the manifest, a first scan (an empty cache folder:
// every file stamped, the cache written), each run interleaved with rg and with the other builds
// compared (`npm run bench -- scan --base DIR`: a build of an older commit, e.g. a git worktree
// after `npm ci`), so that a drift of the shared machine's speed hits every figure alike.
// Every figure: min and median wall time of the runs, median CPU (user + system, which a
// loaded machine moves less), peak RSS, and the load average while they ran.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

import { runTimed } from "../child-runs.js";

const RG = "/usr/bin/rg";

export interface Build {
  label: string;
  /** bin/speky.js of the build. */
  bin: string;
}

export interface Sample {
  ms: number;
  cpuMs: number | null;
  rssMb: number | null;
  stdout: string;
}

/** One child process, timed from spawn to exit (child-runs.ts runTimed), without its stderr. */
export function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Sample & { status: number | null } {
  const { ms, cpuMs, rssMb, stdout, status } = runTimed(command, args, env, cwd);
  return { ms, cpuMs, rssMb, stdout, status };
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export interface Figure {
  name: string;
  minMs: number;
  medianMs: number;
  cpuMs: number | null;
  rssMb: number | null;
}

function figure(name: string, samples: Sample[]): Figure {
  const cpus = samples.map((s) => s.cpuMs).filter((c): c is number => c !== null);
  const rss = samples.map((s) => s.rssMb).filter((c): c is number => c !== null);
  return {
    name,
    minMs: Math.min(...samples.map((s) => s.ms)),
    medianMs: median(samples.map((s) => s.ms)),
    cpuMs: cpus.length ? median(cpus) : null,
    rssMb: rss.length ? Math.max(...rss) : null,
  };
}

/** What a pair run scans: a folder holding speky.yaml (code_sources: [repo]) and repo/. */
export interface PairTree {
  label: string;
  dir: string;
}

/**
 * Node's start as every scan meets it, and, when NODE_EXTRA_CA_CERTS is set, without it: Node
 * 20 reads those certificates before the first line of a script (24-30 against 58-84 ms on
 * the machine of 2026-12-03); Node 22 and 24 start as fast with it as without.
 */
function nodeStarts(): { name: string; env: NodeJS.ProcessEnv; samples: Sample[] }[] {
  const starts = [{ name: "node -e 0", env: {}, samples: [] as Sample[] }];
  if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
    starts.push({ name: "node -e 0, no extra CAs", env: { NODE_EXTRA_CA_CERTS: undefined }, samples: [] });
  }
  return starts;
}

/**
 * The scans of one tree by one build. `fresh`: with a cache folder of its own, empty, as a
 * user's first scan after a clone (the scan then stamps every file and writes the cache).
 */
function scans(tree: PairTree): { name: string; args: string[]; cwd: string; warm: boolean; fresh?: boolean; env?: NodeJS.ProcessEnv }[] {
  const repo = path.join(tree.dir, "repo");
  const manifestWarm = { name: "manifest warm", args: ["scan", "speky.yaml"], cwd: tree.dir, warm: true };
  return [
    { name: "manifest cold", args: ["scan", "--no-cache", "speky.yaml"], cwd: tree.dir, warm: false },
    { name: "manifest first", args: ["scan", "speky.yaml"], cwd: tree.dir, warm: false, fresh: true },
    manifestWarm,
    // The warm scan as a user without the variable meets it (see nodeStarts).
    ...(process.env.NODE_EXTRA_CA_CERTS === undefined
      ? []
      : [{ ...manifestWarm, name: "manifest warm, no extra CAs", env: { NODE_EXTRA_CA_CERTS: undefined } }]),
    { name: "--project cold", args: ["scan", "--no-cache", "--project", "bench", "."], cwd: repo, warm: false },
    { name: "--project warm", args: ["scan", "--project", "bench", "."], cwd: repo, warm: true },
  ];
}

const withoutMs = (json: string) => json.replace(/"ms": \d+/, '"ms": 0');

export interface PairResult {
  tree: string;
  rg: Figure;
  /** `node -e 0` in the same rounds: the part of every scan's time that is Node's own start. */
  nodeStart: Figure[];
  /** By build label, then scan name. */
  figures: Map<string, Figure[]>;
  /** Every build's output equal to the first build's cold one, per scan kind. */
  identical: boolean;
  load: string;
}

/**
 * `runs` rounds; in each, rg once and every build's five scans, the builds' order alternating
 * from round to round. Each build has a cache folder of its own, primed before the rounds.
 */
export function pairRuns(tree: PairTree, builds: Build[], runs: number, log: (line: string) => void): PairResult {
  const repo = path.join(tree.dir, "repo");
  const caches = builds.map(() => mkdtempSync(path.join(tmpdir(), "speky-bench-pair-cache-")));
  const loads: number[] = [os.loadavg()[0]];
  try {
    const rgSamples: Sample[] = [];
    const starts = nodeStarts();
    const samples = builds.map(() => new Map<string, Sample[]>());
    let identical = true;
    const reference = new Map<string, string>();
    timed(RG, ["-l", "speky:", repo], repo); // page cache, for every side
    builds.forEach((b, k) => {
      for (const s of scans(tree)) if (s.warm) timed(process.execPath, [b.bin, ...s.args], s.cwd, { SPEKY_CACHE_DIR: caches[k] });
    });
    for (let round = 0; round < runs; round++) {
      rgSamples.push(timed(RG, ["-l", "speky:", repo], repo));
      for (const start of starts) start.samples.push(timed(process.execPath, ["-e", "0"], repo, start.env));
      const order = builds.map((_, k) => k);
      if (round % 2 === 1) order.reverse();
      for (const k of order) {
        for (const s of scans(tree)) {
          const cache = s.fresh ? mkdtempSync(path.join(tmpdir(), "speky-bench-pair-first-")) : caches[k];
          const r = timed(process.execPath, [builds[k].bin, ...s.args], s.cwd, { SPEKY_CACHE_DIR: cache, ...s.env });
          if (s.fresh) rmSync(cache, { recursive: true, force: true });
          if (r.status !== 0) throw new Error(`${builds[k].label} speky ${s.args.join(" ")} exited ${r.status}`);
          const kind = s.name.split(" ")[0];
          const out = withoutMs(r.stdout);
          if (!reference.has(kind)) reference.set(kind, out);
          else if (reference.get(kind) !== out) identical = false;
          const list = samples[k].get(s.name) ?? [];
          list.push(r);
          samples[k].set(s.name, list);
        }
      }
      loads.push(os.loadavg()[0]);
      log(`   round ${round + 1}/${runs} done (load ${os.loadavg()[0].toFixed(1)})`);
    }
    const figures = new Map<string, Figure[]>();
    builds.forEach((b, k) => {
      figures.set(
        b.label,
        [...samples[k]].map(([name, list]) => figure(name, list)),
      );
    });
    return {
      tree: tree.label,
      rg: figure("rg -l speky:", rgSamples),
      nodeStart: starts.map((start) => figure(start.name, start.samples)),
      figures,
      identical,
      load: `load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} on ${os.availableParallelism()} cores`,
    };
  } finally {
    for (const c of caches) rmSync(c, { recursive: true, force: true });
  }
}

const fmt = (ms: number | null) => (ms === null ? "?" : `${Math.round(ms)}`);

/** The table of a pair run: per build and scan, wall min/median, CPU, RSS and the ratio to rg. */
export function pairLines(result: PairResult): string[] {
  const lines = [
    `${result.tree} (${result.load}); every output identical: ${result.identical ? "yes" : "NO"}`,
    `${"".padEnd(28)}${"min ms".padStart(8)}${"median".padStart(8)}${"cpu ms".padStart(8)}${"rss MB".padStart(8)}${"min/rg".padStart(8)}${"med/rg".padStart(8)}`,
  ];
  const row = (label: string, f: Figure) =>
    `${label.padEnd(28)}${fmt(f.minMs).padStart(8)}${fmt(f.medianMs).padStart(8)}${fmt(f.cpuMs).padStart(8)}${fmt(f.rssMb).padStart(8)}${(f.minMs / result.rg.minMs).toFixed(2).padStart(8)}${(f.medianMs / result.rg.medianMs).toFixed(2).padStart(8)}`;
  lines.push(row("rg -l speky:", result.rg));
  for (const f of result.nodeStart) lines.push(row(f.name, f));
  for (const [label, figures] of result.figures) for (const f of figures) lines.push(row(`${label} ${f.name}`, f));
  return lines;
}

/**
 * A copy of a bench tree (hard links: no file copied) with `count` symbolic links planted
 * across its folders, to folders and files of the tree: a warm scan should not mind them.
 */
export function linkedCopy(from: PairTree, count: number): PairTree {
  const dir = path.join(tmpdir(), `${path.basename(from.dir)}-links${count}`);
  if (!existsSync(path.join(dir, "done"))) {
    rmSync(dir, { recursive: true, force: true });
    const r = spawnSync("cp", ["-al", from.dir, dir]);
    if (r.status !== 0) cpSync(from.dir, dir, { recursive: true });
    const repo = path.join(dir, "repo");
    const folders: string[] = [];
    const files: string[] = [];
    const walk = (d: string, depth: number) => {
      for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) {
          folders.push(p);
          if (depth < 6) walk(p, depth + 1);
        } else if (e.isFile()) files.push(p);
      }
    };
    walk(repo, 0);
    const linksDir = (i: number) => folders[(i * 7919) % folders.length];
    for (let i = 0; i < count; i++) {
      const at = linksDir(i);
      // Half to files (a second name, listed once), half to folders (already walked: entered once).
      const target = i % 2 === 0 ? files[(i * 104729) % files.length] : folders[(i * 15485863) % folders.length];
      symlinkSync(target, path.join(at, `zz-link-${i}${i % 2 === 0 ? path.extname(target) : ""}`));
    }
    rmSync(path.join(dir, "tree.json"), { force: true });
    spawnSync("touch", [path.join(dir, "done")]);
  }
  return { label: `${from.label} with ${count} links`, dir };
}

/**
 * A tree of `count` small untagged files (and one tagged file per 10,000) in folders of 100,
 * built once under the temp dir: what a scan holds per file it only lists and reads.
 */
export function smallFilesTree(count: number): PairTree {
  const dir = path.join(tmpdir(), `speky-bench-small-${count}`);
  const repo = path.join(dir, "repo");
  if (!existsSync(path.join(dir, "done"))) {
    rmSync(dir, { recursive: true, force: true });
    for (let i = 0; i < count; i++) {
      const folder = path.join(
        repo,
        `d${String(Math.floor(i / 10_000)).padStart(3, "0")}`,
        `s${String(Math.floor(i / 100) % 100).padStart(2, "0")}`,
      );
      if (i % 100 === 0) mkdirSync(folder, { recursive: true });
      const tagged = i % 10_000 === 0;
      writeFileSync(path.join(folder, `m${i}.py`), tagged ? `# speky${":"}bench#M-${i}\ndef f${i}():\n    pass\n` : `x = ${i}\n`);
    }
    writeFileSync(path.join(dir, "speky.yaml"), "kind: project\nname: bench\nfiles: []\ncode_sources: [repo]\n");
    writeFileSync(path.join(dir, "done"), "");
  }
  return { label: `${count.toLocaleString("en-US")} small files`, dir };
}

/** Peak RSS of the --project scans, cold then warm, per build: bytes per file past a bare Node. */
export function memoryLines(tree: PairTree, builds: Build[], count: number): string[] {
  const repo = path.join(tree.dir, "repo");
  const bare = timed(process.execPath, ["-e", "0"], repo).rssMb ?? 0;
  const lines = [`${tree.label} (a bare node: ${bare.toFixed(0)} MB; load ${os.loadavg()[0].toFixed(1)})`];
  for (const b of builds) {
    const cache = mkdtempSync(path.join(tmpdir(), "speky-bench-mem-cache-"));
    try {
      for (const [name, args] of [
        ["cold", ["scan", "--project", "bench", "."]],
        ["warm", ["scan", "--project", "bench", "."]],
      ] as const) {
        const r = timed(process.execPath, [b.bin, ...args], repo, { SPEKY_CACHE_DIR: cache });
        const perFile = r.rssMb === null ? "?" : `${Math.round(((r.rssMb - bare) * 1024 * 1024) / count)} bytes/file`;
        lines.push(`${b.label} ${name}: ${fmt(r.ms)} ms, peak RSS ${fmt(r.rssMb)} MB (${perFile}), exit ${r.status}`);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }
  return lines;
}
