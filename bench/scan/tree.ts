// The scan bench's trees, built once under the temp dir and reused while their version holds:
//   - "real" (tree-real.ts): issue 14's shape, ~25,400 real files of which ~430 are tagged;
//   - "dense": ≥ 20,000 source files nobody here wrote (copies of this package's node_modules,
//     source files only) plus generated files in five languages, a tag in one file of three
//     or so: a stress case where parsing dominates.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { languageForPath } from "../../dist/scan/grammar/languages.js";
import { buildRealTree, renamed } from "./tree-real.js";

const TREE_VERSIONS = { real: 5, dense: 4 } as const;
export type TreeKind = keyof typeof TREE_VERSIONS;
/** node_modules copied as many times as needed (at most COPIES) for VENDOR_FILES files… */
const COPIES = 5;
const VENDOR_FILES = 20_000;
/** …and generated files make up the rest of TOTAL_FILES. */
const TOTAL_FILES = 25_000;
/** A vendor file gets a tag above its first top-level function when it is small enough… */
const PLANT_MAX_BYTES = 64 * 1024;
/** …and one eligible file in PLANT_EVERY is chosen. */
const PLANT_EVERY = 3;
/** One generated file in GEN_TAG_EVERY carries a tag. */
const GEN_TAG_EVERY = 3;

export const BENCH_PROJECT = "bench";

export interface Planted {
  /** Relative to the scanned directory, `/`-separated. */
  file: string;
  id: string;
  /** The function the tag is written above. */
  symbol: string;
}

export interface BenchTree {
  /** The directory holding the manifest, the specs and `repo/`. */
  dir: string;
  /** The scanned directory. */
  repo: string;
  /** Manifest whose code_sources is `repo` (pre-commit bench). */
  manifest: string;
  files: number;
  bytes: number;
  planted: Planted[];
  /** Ten files of the tree for the pre-commit bench (absolute paths). */
  commitFiles: string[];
  /** Files per language (the real tree). */
  composition?: Record<string, number>;
}

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Source files of node_modules (relative paths), as the scanner sees them: no dot files. */
function vendorFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...vendorFiles(dir, child));
    else if (entry.isFile() && languageForPath(entry.name) !== null) out.push(child);
  }
  return out;
}

const TOP_FUNCTION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/;

/** Index of the first top-level function line a tag can go above (not after an open comment). */
function plantableLine(lines: string[]): number {
  let inBlockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inBlockComment && TOP_FUNCTION.test(line) && i > 0 && !/[`\\]\s*$/.test(lines[i - 1])) return i;
    // Rough block-comment tracking: enough to avoid planting inside a license header.
    const open = line.lastIndexOf("/*");
    const close = line.lastIndexOf("*/");
    if (open > close) inBlockComment = true;
    else if (close > open) inBlockComment = false;
  }
  return -1;
}

const pad = (n: number, w = 5) => String(n).padStart(w, "0");

interface Generated {
  rel: string;
  text: string;
  planted: Planted | null;
}

/** One generated file: three functions, a tag above the second one when `tagged`. */
function generate(language: string, n: number, tagged: boolean): Generated {
  const id = `G${language.toUpperCase()}-${pad(n)}`;
  const dir = `gen/${language}/pkg${pad(Math.floor(n / 100), 3)}`;
  const tag = (comment: string) => (tagged ? [`${comment} speky:${BENCH_PROJECT}#${id}`] : []);
  const names = [0, 1, 2].map((k) => `work_${n}_${k}`);
  let rel: string;
  let lines: string[];
  let symbol: string;
  switch (language) {
    case "py":
      rel = `${dir}/mod_${n}.py`;
      symbol = names[1];
      lines = [`"""Generated module ${n}."""`, "import os", ""];
      names.forEach((name, k) => {
        if (k === 1) lines.push(...tag("#"));
        lines.push(
          `def ${name}(value, scale=${k + 1}):`,
          `    """Scales value."""`,
          `    total = value * scale`,
          `    return os.fspath(str(total))`,
          "",
          "",
        );
      });
      break;
    case "go":
      rel = `${dir}/file_${n}.go`;
      symbol = `Work${n}x1`;
      lines = [`package pkg${Math.floor(n / 100)}`, "", `import "fmt"`, ""];
      [0, 1, 2].forEach((k) => {
        if (k === 1) lines.push(...tag("//"));
        lines.push(`func Work${n}x${k}(value int) string {`, `\ttotal := value * ${k + 1}`, `\treturn fmt.Sprint(total)`, "}", "");
      });
      break;
    case "rs":
      rel = `${dir}/file_${n}.rs`;
      symbol = names[1];
      lines = ["use std::fmt::Write;", ""];
      names.forEach((name, k) => {
        if (k === 1) lines.push(...tag("///"));
        lines.push(
          `pub fn ${name}(value: i64) -> String {`,
          `    let mut out = String::new();`,
          `    write!(out, "{}", value * ${k + 1}).unwrap();`,
          "    out",
          "}",
          "",
        );
      });
      break;
    case "java": {
      const cls = `Gen${n}`;
      rel = `${dir}/${cls}.java`;
      symbol = `${cls}.work${n}x1`;
      lines = [`package gen.pkg${Math.floor(n / 100)};`, "", `public class ${cls} {`];
      [0, 1, 2].forEach((k) => {
        if (k === 1) lines.push(...tag("    //"));
        lines.push(`    public static String work${n}x${k}(int value) {`, `        return String.valueOf(value * ${k + 1});`, "    }", "");
      });
      lines.push("}");
      break;
    }
    default:
      rel = `${dir}/file_${n}.ts`;
      symbol = `work${n}x1`;
      lines = [`import { format } from "node:util";`, ""];
      [0, 1, 2].forEach((k) => {
        if (k === 1) lines.push(...tag("//"));
        lines.push(`export function work${n}x${k}(value: number): string {`, `  return format("%d", value * ${k + 1});`, "}", "");
      });
  }
  return { rel, text: `${lines.join("\n")}\n`, planted: tagged ? { file: rel, id, symbol } : null };
}

function write(file: string, content: string | Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function buildDense(dir: string): Omit<BenchTree, "dir" | "repo" | "manifest"> {
  const repo = path.join(dir, "repo");
  const source = path.join(PACKAGE_ROOT, "node_modules");
  const vendor = vendorFiles(source).sort();
  const planted: Planted[] = [];
  let files = 0;
  let bytes = 0;
  let eligible = 0;
  const untaggedVendor: string[] = [];
  const plans = new Map<string, { line: number; symbol: string; lines: string[] }>();
  for (const rel of vendor) {
    if (!/\.(?:m|c)?[jt]s$/.test(rel) || rel.endsWith(".d.ts")) continue;
    const abs = path.join(source, rel);
    if (statSync(abs).size > PLANT_MAX_BYTES) continue;
    const lines = readFileSync(abs, "utf8").split("\n");
    const line = plantableLine(lines);
    if (line < 0) continue;
    if (eligible++ % PLANT_EVERY !== 0) continue;
    plans.set(rel, { line, symbol: TOP_FUNCTION.exec(lines[line])![1], lines });
  }
  for (let copy = 1; copy <= COPIES && files < VENDOR_FILES; copy++) {
    let k = 0;
    for (const rel of vendor) {
      if (files >= VENDOR_FILES) break;
      const to = `vendor-${copy}/${renamed(rel)}`;
      const plan = plans.get(rel);
      if (!plan) untaggedVendor.push(to);
      const abs = path.join(repo, to);
      if (plan) {
        const id = `V${copy}-${pad(k++)}`;
        const indent = /^\s*/.exec(plan.lines[plan.line])![0];
        const text = [...plan.lines.slice(0, plan.line), `${indent}// speky:${BENCH_PROJECT}#${id}`, ...plan.lines.slice(plan.line)].join(
          "\n",
        );
        write(abs, text);
        planted.push({ file: to, id, symbol: plan.symbol });
      } else {
        mkdirSync(path.dirname(abs), { recursive: true });
        copyFileSync(path.join(source, rel), abs);
      }
      bytes += statSync(abs).size;
      files++;
    }
  }
  const languages = ["py", "go", "rs", "java", "ts"];
  for (let n = 0; files < TOTAL_FILES; n++) {
    const g = generate(languages[n % languages.length], n, n % GEN_TAG_EVERY === 0);
    write(path.join(repo, g.rel), g.text);
    if (g.planted) planted.push(g.planted);
    bytes += Buffer.byteLength(g.text);
    files++;
  }
  return { files, bytes, planted, ...projectFiles(dir, planted, untaggedVendor) };
}

/** Ten files a commit might touch (tagged and untagged) and the project naming every planted ID. */
function projectFiles(dir: string, planted: Planted[], untagged: string[]): { commitFiles: string[] } {
  const repo = path.join(dir, "repo");
  const tagged = planted
    .filter((_, i) => i % Math.floor(planted.length / 5) === 0)
    .slice(0, 5)
    .map((p) => p.file);
  const plain = untagged.filter((_, i, all) => i % Math.floor(all.length / 5) === 0).slice(0, 5);
  const commitFiles = [...tagged, ...plain].map((rel) => path.join(repo, rel));

  // The pre-commit bench's project: every planted ID is a requirement, so the check is clean.
  const requirements = ["kind: requirements", "category: functional", "requirements:"];
  for (const p of planted) {
    requirements.push(`  - id: ${p.id}`, `    short: Planted above ${p.symbol}`, `    long: The tag in ${p.file} documents ${p.symbol}.`);
  }
  write(path.join(dir, "specs", "requirements.yaml"), `${requirements.join("\n")}\n`);
  write(
    path.join(dir, "speky.yaml"),
    ["kind: project", `name: ${BENCH_PROJECT}`, "files: [specs/*.yaml]", "code_sources: [repo]", ""].join("\n"),
  );
  return { commitFiles };
}

function buildReal(dir: string): Omit<BenchTree, "dir" | "repo" | "manifest"> {
  const built = buildRealTree(path.join(dir, "repo"), PACKAGE_ROOT, BENCH_PROJECT);
  return {
    files: built.files,
    bytes: built.bytes,
    planted: built.planted,
    composition: built.composition,
    ...projectFiles(dir, built.planted, built.untagged),
  };
}

/** The tree, built on first use (a few seconds) and kept in the temp dir. */
export function ensureBenchTree(log: (line: string) => void = () => undefined, kind: TreeKind = "real"): BenchTree {
  const dir = path.join(tmpdir(), `speky-bench-tree-v${TREE_VERSIONS[kind]}`);
  const index = path.join(dir, "tree.json");
  const paths = { dir, repo: path.join(dir, "repo"), manifest: path.join(dir, "speky.yaml") };
  if (existsSync(index)) {
    try {
      return { ...paths, ...(JSON.parse(readFileSync(index, "utf8")) as Omit<BenchTree, "dir" | "repo" | "manifest">) };
    } catch {
      // rebuilt below
    }
  }
  log(`building the bench tree in ${dir} (once)...`);
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const built = kind === "real" ? buildReal(building) : buildDense(building);
  // The ten commit files were computed under the building directory.
  built.commitFiles = built.commitFiles.map((f) => path.join(dir, path.relative(building, f)));
  writeFileSync(path.join(building, "tree.json"), JSON.stringify(built));
  // Another bench may have built it meanwhile and be scanning it: keep its tree, drop ours.
  if (existsSync(index)) {
    rmSync(building, { recursive: true, force: true });
    return ensureBenchTree(log, kind);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { ...paths, ...built };
}
