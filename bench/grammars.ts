// `npm run bench:grammars [-- options] [folder...]`: grammar health on real files. For each
// language: how many files were parsed, the share whose tree holds ERROR or MISSING nodes,
// runtime errors thrown by the grammar, files past the parse bound, and the slowest file.
// Sources: what the machine has (Python's standard library, /usr/include, this package's
// node_modules, pyenv, the Google Cloud SDK, the JDK's src.zip, the Rust toolchain's
// sources, where installed) plus the folders given.
// Options: --max N (files per language, default 1200), --only a,b (languages),
// --wasm id=file.wasm (measure another build of a grammar), --no-machine (given folders only),
// --json FILE (the rows as JSON).
// speky:speky-ts#GRAM-BENCH
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Parser } from "web-tree-sitter";
import { MAX_PARSE_BYTES } from "../dist/scan/engine/index.js";
import { languageForPath, languageTable, wasmPath } from "../dist/scan/grammar/languages.js";
import { loadWasm, parseBoundMs } from "../dist/scan/grammar/runtime.js";
import { childPaths, filesByLanguage, jdkSources } from "./machine-sources.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Options {
  max: number;
  only: Set<string> | null;
  /** Other builds to measure beside the table's, by language. */
  wasm: Map<string, string[]>;
  machine: boolean;
  json: string | null;
  folders: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { max: 1200, only: null, wasm: new Map(), machine: true, json: null, folders: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "grammars") continue;
    if (arg === "--max") options.max = Number(argv[++i]);
    else if (arg === "--only") options.only = new Set(argv[++i].split(","));
    else if (arg === "--wasm") {
      const [id, file] = argv[++i].split("=");
      options.wasm.set(id, [...(options.wasm.get(id) ?? []), path.resolve(file)]);
    } else if (arg === "--no-machine") options.machine = false;
    else if (arg === "--json") options.json = argv[++i];
    else options.folders.push(path.resolve(arg));
  }
  return options;
}

/** Folders of real code the machine has. */
export function machineFolders(): string[] {
  const home = process.env.HOME ?? "/root";
  const folders = [
    ...childPaths("/usr/lib", /^python3\.\d+$/),
    "/usr/include",
    path.join(PACKAGE_ROOT, "node_modules"),
    path.join(home, ".pyenv"),
    "/usr/lib/google-cloud-sdk",
    ...jdkSources("java.base", "speky-bench-jdk-src"),
    ...childPaths(path.join(home, ".rustup/toolchains"), /./).map((t) => path.join(t, "lib/rustlib/src/rust/library")),
  ];
  return folders.filter(existsSync);
}

/** At most `max` files, spread evenly over the sorted list (not the first folder only). */
function sample(files: string[], max: number): string[] {
  if (files.length <= max) return files;
  const step = files.length / max;
  return Array.from({ length: max }, (_, i) => files[Math.floor(i * step)]);
}

export interface HealthRow {
  language: string;
  build: string;
  files: number;
  withErrors: number;
  runtimeErrors: number;
  overBound: number;
  slowestMs: number;
  slowestFile: string;
  firstRuntimeError: string | null;
}

interface FileOutcome {
  ms: number;
  error: boolean;
  overBound: boolean;
  runtimeError?: string;
}

/**
 * Child process: parses `files` from `start` on, one JSON line per file. A grammar that traps
 * may leave the runtime (shared by every grammar of the process) broken, so the child stops
 * at the first trap and the parent starts a new one after that file.
 */
async function child(wasm: string, listFile: string, start: number): Promise<void> {
  const files = JSON.parse(readFileSync(listFile, "utf8")) as string[];
  const bound = parseBoundMs();
  let grammar: Awaited<ReturnType<typeof loadWasm>>;
  try {
    grammar = await loadWasm(wasm);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ load: err instanceof Error ? err.message : String(err) })}\n`);
    return;
  }
  const parser = new Parser();
  parser.setLanguage(grammar);
  for (let i = start; i < files.length; i++) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(files[i]));
    } catch {
      process.stdout.write(`${JSON.stringify({ i, skip: true })}\n`);
      continue;
    }
    const started = performance.now();
    let cancelled = false;
    const outcome: FileOutcome = { ms: 0, error: false, overBound: false };
    try {
      const tree = parser.parse(text, null, {
        progressCallback: () => (cancelled ||= performance.now() - started >= bound),
      });
      outcome.ms = performance.now() - started;
      if (tree) {
        outcome.error = tree.rootNode.hasError;
        tree.delete();
      } else {
        outcome.overBound = cancelled;
        parser.reset();
      }
    } catch (err) {
      outcome.ms = performance.now() - started;
      outcome.runtimeError = err instanceof Error ? err.message : String(err);
      process.stdout.write(`${JSON.stringify({ i, ...outcome })}\n`);
      // A trap may have broken the runtime; a JavaScript error (a missing import) unwinds cleanly.
      if (err instanceof WebAssembly.RuntimeError) process.exit(3);
      parser.reset();
      continue;
    }
    process.stdout.write(`${JSON.stringify({ i, ...outcome })}\n`);
  }
}

const MAX_RESTARTS = 100;

/** One build of one grammar on `files`, in child processes of this script. */
function measure(language: string, wasm: string, build: string, files: string[]): HealthRow | string {
  const row: HealthRow = {
    language,
    build,
    files: 0,
    withErrors: 0,
    runtimeErrors: 0,
    overBound: 0,
    slowestMs: 0,
    slowestFile: "",
    firstRuntimeError: null,
  };
  const listFile = path.join(tmpdir(), `speky-bench-grammars-${process.pid}.json`);
  writeFileSync(listFile, JSON.stringify(files));
  let start = 0;
  for (let restarts = 0; start < files.length && restarts <= MAX_RESTARTS; restarts++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", wasm, listFile, String(start)], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    let last = start - 1;
    for (const line of r.stdout.split("\n")) {
      if (!line) continue;
      const o = JSON.parse(line) as { load?: string; i: number; skip?: boolean } & FileOutcome;
      if (o.load) {
        rmSync(listFile, { force: true });
        return o.load;
      }
      last = o.i;
      if (o.skip) continue;
      row.files++;
      if (o.error) row.withErrors++;
      if (o.overBound) row.overBound++;
      if (o.ms > row.slowestMs) [row.slowestMs, row.slowestFile] = [o.ms, files[o.i]];
      if (o.runtimeError) {
        row.runtimeErrors++;
        row.firstRuntimeError ??= `${path.basename(files[o.i])}: ${o.runtimeError}`;
      }
    }
    if (r.status === 0) break;
    // A crash without a line for the file it was on: count that file as a runtime error.
    if (r.status !== 3) {
      const at = last + 1;
      if (at >= files.length) break;
      row.files++;
      row.runtimeErrors++;
      row.firstRuntimeError ??= `${path.basename(files[at])}: exit ${r.status ?? r.signal}: ${r.stderr.trim().split("\n").at(-1) ?? ""}`;
      last = at;
    }
    start = last + 1;
  }
  rmSync(listFile, { force: true });
  return row;
}

/** `package@version/file` of a .wasm inside node_modules, else its path. */
function buildName(wasm: string): string {
  const parts = wasm.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return wasm;
  const scoped = parts[at + 1].startsWith("@");
  const name = parts.slice(at + 1, at + (scoped ? 3 : 2)).join("/");
  const dir = parts.slice(0, at + (scoped ? 3 : 2)).join(path.sep);
  let version = "?";
  try {
    version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    // unnamed version
  }
  return `${name}@${version}`;
}

const pct = (n: number, d: number) => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);

export function healthTable(rows: HealthRow[]): string {
  const lines = [
    "| language | build | files | with ERROR | runtime errors | over bound | slowest file |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const r of rows) {
    const slowest = r.slowestFile ? `${Math.round(r.slowestMs)} ms ${path.basename(r.slowestFile)}` : "-";
    lines.push(
      `| ${r.language} | ${r.build} | ${r.files} | ${pct(r.withErrors, r.files)} | ${r.runtimeErrors} | ${r.overBound} | ${slowest} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  if (process.argv[2] === "--child") return child(process.argv[3], process.argv[4], Number(process.argv[5]));
  const options = parseArgs(process.argv.slice(2));
  const roots = [...(options.machine ? machineFolders() : []), ...options.folders];
  console.log(`sources: ${roots.join(", ")}`);
  const byLanguage = filesByLanguage(roots, languageForPath, { maxDepth: 40, maxBytes: MAX_PARSE_BYTES, only: options.only });
  const table = languageTable();
  const rows: HealthRow[] = [];
  for (const id of Object.keys(table.languages).sort()) {
    const files = byLanguage.get(id);
    if (!files || files.length === 0) continue;
    const row = table.languages[id];
    const builds: [string, string][] = [[wasmPath(row), `${row.grammar.package}@${row.grammar.version}`]];
    for (const other of options.wasm.get(id) ?? []) builds.push([other, buildName(other)]);
    for (const [wasm, build] of builds) {
      const measured = measure(id, wasm, build, sample(files, options.max));
      if (typeof measured === "string") {
        console.error(`${id} ${build}: does not load: ${measured}`);
        continue;
      }
      rows.push(measured);
      console.error(
        `${id} ${build}: ${measured.files} files${measured.firstRuntimeError ? `, first runtime error: ${measured.firstRuntimeError}` : ""}`,
      );
    }
  }
  console.log(healthTable(rows));
  if (options.json) writeFileSync(options.json, `${JSON.stringify(rows, null, 2)}\n`);
}

await main();
