// `npm run bench -- walk`: what one glob reaches, timed three ways on the same trees with the
// same rule (dot entries in, links followed, `.git` out, files only):
//   - ours: src/fs/globs.ts (sync readdir per folder, src/fs/wildmatch/, async with yields),
//   - fdir + picomatch (fdir's async and sync crawlers, picomatch as its filter),
//   - fast-glob (async and sync APIs).
// Each figure is the best of RUNS in this process (the machine is shared); the file counts
// show what each reached (ours lists a real file reached through two links once; the others
// list it twice). Runs on the 2-core shared development machine (load average 15-20) put
// fast-glob's async API at 0.8-1.1x our time and fdir's async crawler at 0.2-0.7x: fdir lists
// faster. src/fs/globs.ts still walks on its own because the walk must check every link
// against the confinement boundary before entering it, apply ignore files per folder, enter
// each real folder once and emit Path order, none of which fdir's callbacks can do without a
// realpath per folder; re-run this bench after changing the walk.
import path from "node:path";
import { fileURLToPath } from "node:url";
import fg from "fast-glob";
import { fdir } from "fdir";
import picomatch from "picomatch";
import { GlobWalker } from "../dist/fs/globs.js";
import { ensureBenchTree } from "./scan/tree.js";

const RUNS = 5;
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Contender {
  name: string;
  run(root: string, pattern: string): Promise<number> | number;
}

const CONTENDERS: Contender[] = [
  {
    name: "speky-ts globs.ts",
    async run(root, pattern) {
      return (await new GlobWalker().expand(root, pattern, { boundary: null, ignore: false, folder: null })).files.length;
    },
  },
  {
    name: "fdir + picomatch (async)",
    async run(root, pattern) {
      return (await crawler(root, pattern).crawl(root).withPromise()).length;
    },
  },
  {
    name: "fdir + picomatch (sync)",
    run(root, pattern) {
      return crawler(root, pattern).crawl(root).sync().length;
    },
  },
  {
    name: "fast-glob (async)",
    async run(root, pattern) {
      return (await fg(pattern, options(root))).length;
    },
  },
  {
    name: "fast-glob (sync)",
    run(root, pattern) {
      return fg.sync(pattern, options(root)).length;
    },
  },
];

function crawler(root: string, pattern: string) {
  const isMatch = picomatch(pattern, { dot: true });
  const prefix = root.length + 1;
  return new fdir()
    .withFullPaths()
    .withSymlinks()
    .exclude((name) => name === ".git")
    .filter((file) => isMatch(file.slice(prefix)));
}

const options = (cwd: string) => ({
  cwd,
  dot: true,
  onlyFiles: true,
  followSymbolicLinks: true,
  ignore: ["**/.git/**"],
  suppressErrors: true,
});

async function best(c: Contender, root: string, pattern: string): Promise<{ ms: number; files: number }> {
  let ms = Infinity;
  let files = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    files = await c.run(root, pattern);
    ms = Math.min(ms, performance.now() - started);
  }
  return { ms, files };
}

export async function benchWalk(log: (line?: string) => void): Promise<void> {
  const tree = ensureBenchTree((line) => log(`   ${line}`));
  const cases: [string, string, string][] = [
    ["node_modules of speky-ts", path.join(PACKAGE_ROOT, "node_modules"), "**/*.js"],
    ["node_modules of speky-ts", path.join(PACKAGE_ROOT, "node_modules"), "**/*"],
    ["bench tree (bench/scan/tree.ts)", tree.repo, "**/*.py"],
    ["bench tree (bench/scan/tree.ts)", tree.repo, "**/*"],
  ];
  log(`walk: best of ${RUNS} runs each; ratio = time / speky-ts globs.ts time`);
  for (const [label, root, pattern] of cases) {
    log();
    log(`${label}, '${pattern}'`);
    let ours = 0;
    for (const c of CONTENDERS) {
      const { ms, files } = await best(c, root, pattern);
      if (ours === 0) ours = ms;
      log(`  ${c.name.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  ${String(files).padStart(7)} files  ${(ms / ours).toFixed(2)}×`);
    }
  }
}
