// `npm run bench:query-compile [-- options] [folder...]`: what compiling each language's query
// costs, and whether a rewritten query matches as the old one did.
// Times, per language (the main query; string queries compile only for a tag in a string): the first compile in a fresh process (what `speky check` pays: the
// wasm code is not yet optimised) as the median of --runs processes, and the best of 10
// compiles once warm (the query's own cost, steadier on a loaded machine).
// --compare id=old.scm[+old2.scm]: the matches of that source and of the table's on every
// file of the language under the folders, whole and cut short (broken trees too), compared
// capture by capture; exit 1 on any difference.
// Options: --only a,b (languages; default: every row), --runs N (default 5), --max N (files
// per language compared, default 3000).
// speky:speky-ts#QUERY-COMPILE-BENCH
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Parser, Query, type QueryMatch } from "web-tree-sitter";
import { MAX_PARSE_BYTES } from "../dist/scan/engine/index.js";
import { languageForPath, languageRow, languageTable } from "../dist/scan/grammar/languages.js";
import { loadGrammar, querySource, stringQuerySource } from "../dist/scan/grammar/runtime.js";
import { filesByLanguage } from "./machine-sources.js";

interface Options {
  only: string[];
  runs: number;
  max: number;
  compare: Map<string, string[]>;
  folders: string[];
  child: string | null;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    only: Object.keys(languageTable().languages),
    runs: 5,
    max: 3000,
    compare: new Map(),
    folders: [],
    child: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--only") options.only = argv[++i].split(",");
    else if (arg === "--runs") options.runs = Number(argv[++i]);
    else if (arg === "--max") options.max = Number(argv[++i]);
    else if (arg === "--child") options.child = argv[++i];
    else if (arg === "--compare") {
      const [id, files] = argv[++i].split("=");
      options.compare.set(id, files.split("+"));
    } else options.folders.push(arg);
  }
  return options;
}

/** In a fresh process: the first compile, then the best of 10 warm ones, as JSON. */
async function child(id: string): Promise<void> {
  const language = await loadGrammar(languageRow(id));
  const source = querySource(languageRow(id));
  let started = performance.now();
  new Query(language, source).delete();
  const first = performance.now() - started;
  let warm = Infinity;
  for (let i = 0; i < 10; i++) {
    started = performance.now();
    new Query(language, source).delete();
    warm = Math.min(warm, performance.now() - started);
  }
  process.stdout.write(JSON.stringify({ first, warm }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeLanguages(options: Options): void {
  const script = fileURLToPath(import.meta.url);
  console.log("language        first compile (median ms)   warm (best ms)");
  for (const id of options.only) {
    const runs: { first: number; warm: number }[] = [];
    for (let i = 0; i < options.runs; i++) {
      const run = spawnSync(process.execPath, [script, "--child", id], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`${id}: ${run.stderr}`);
      runs.push(JSON.parse(run.stdout) as { first: number; warm: number });
    }
    const first = median(runs.map((r) => r.first));
    const warm = Math.min(...runs.map((r) => r.warm));
    console.log(`${id.padEnd(15)} ${first.toFixed(1).padStart(12)}                ${warm.toFixed(1).padStart(8)}`);
  }
}

const describe = (matches: QueryMatch[]) =>
  matches
    .map(
      (m) =>
        `${m.captures.map((c) => `${c.name}@${c.node.startIndex}-${c.node.endIndex}:${c.node.type}`).join(",")}${JSON.stringify(m.setProperties ?? {})}`,
    )
    .sort();

/** The file, cut at a third and two thirds, without its middle line and without every seventh. */
function variants(text: string): string[] {
  const lines = text.split("\n");
  const middle = Math.floor(lines.length / 2);
  return [
    text,
    text.slice(0, Math.floor(text.length / 3)),
    text.slice(0, Math.floor((2 * text.length) / 3)),
    lines.filter((_, i) => i !== middle).join("\n"),
    lines.filter((_, i) => i % 7 !== 3).join("\n"),
  ];
}

async function compare(id: string, oldFiles: string[], options: Options): Promise<boolean> {
  const row = languageRow(id);
  const language = await loadGrammar(row);
  const before = new Query(language, oldFiles.map((f) => readFileSync(f, "utf8")).join("\n"));
  // The string queries too (their patterns counted after the main query's, hence no pattern
  // indexes in the comparison: the captures and properties of each match).
  const after = new Query(language, `${querySource(row)}\n${stringQuerySource(row) ?? ""}`);
  const parser = new Parser();
  parser.setLanguage(language);
  const files = (
    filesByLanguage(options.folders, languageForPath, { maxDepth: 40, maxBytes: MAX_PARSE_BYTES, only: new Set([id]) }).get(id) ?? []
  ).slice(0, options.max);
  let trees = 0;
  let broken = 0;
  let matches = 0;
  let differing = 0;
  for (const file of files) {
    for (const text of variants(readFileSync(file, "utf8"))) {
      const tree = parser.parse(text);
      if (!tree) continue;
      trees++;
      if (tree.rootNode.hasError) broken++;
      const a = describe(before.matches(tree.rootNode));
      const b = describe(after.matches(tree.rootNode));
      tree.delete();
      matches += a.length;
      if (a.join("\n") !== b.join("\n")) {
        differing++;
        if (differing <= 5) console.log(`  differs: ${file}`);
      }
    }
  }
  console.log(`${id}: ${files.length} files, ${trees} trees (${broken} with syntax errors), ${matches} matches, ${differing} differ`);
  return differing === 0 && files.length > 0;
}

const options = parseArgs(process.argv.slice(2));
if (options.child) await child(options.child);
else if (options.compare.size > 0) {
  let same = true;
  for (const [id, files] of options.compare) same = (await compare(id, files, options)) && same;
  process.exitCode = same ? 0 : 1;
} else timeLanguages(options);
