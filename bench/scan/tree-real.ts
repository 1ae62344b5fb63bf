// The scan bench's main tree, shaped like the one issue 14 measured: ~25,400 real source files
// of this machine (~320 MB: Python's standard library, /usr/include's C headers, this package's
// node_modules JavaScript, the JDK's Java sources) of which ~430 hold one tag each, planted
// above a real function (~6 MB of tagged files). A code base where a few files in a hundred are
// tagged: the files without a tag cost a read and a marker search, the tagged ones a parse.
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { languageForPath } from "../../dist/scan/grammar/languages.js";
import { filesByLanguage, jdkSources } from "../machine-sources.js";

export interface RealPlanted {
  file: string;
  id: string;
  symbol: string;
}

export interface RealTree {
  files: number;
  bytes: number;
  planted: RealPlanted[];
  untagged: string[];
  /** Files per language, for the bench's header line. */
  composition: Record<string, number>;
}

const TOTAL_FILES = 25_402;
/** One tag per this many eligible files of each tagged language (~430 tags in all). */
const PLANT_EVERY: Record<string, number> = { python: 6, java: 26, javascript: 10 };
const PLANT_MIN_BYTES = 2 * 1024;
const PLANT_MAX_BYTES = 64 * 1024;
const MAX_FILE_BYTES = 1024 * 1024;
/** JDK modules in order until the tree is full (the largest hand-written ones first). */
const JDK_MODULES = [
  "java.base",
  "java.desktop",
  "java.xml",
  "jdk.hotspot.agent",
  "jdk.compiler",
  "java.management",
  "jdk.jfr",
  "java.naming",
];

interface Plant {
  line: number;
  symbol: string;
  comment: string;
}

const PY_DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const JS_FUNCTION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/;
const JAVA_METHOD =
  /^ {4}(?:(?:public|protected|private|static|final|synchronized|native)\s+)*(?:<[\w\s,?]+>\s+)?[\w.]+(?:<[\w\s,.?]*>)?(?:\[\])*\s+([a-z_]\w*)\s*\([^;]*$/;

/** Lines inside a triple-quoted string or a block comment, roughly: enough not to plant there. */
function insideString(lines: string[], upTo: number, open: RegExp): boolean {
  let inside = false;
  for (let i = 0; i < upTo; i++) if ((lines[i].match(open)?.length ?? 0) % 2 === 1) inside = !inside;
  return inside;
}

/** Where a tag can go in a file of `language` (above its first plain definition), or null. */
function plantIn(language: string, lines: string[]): Plant | null {
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1].trim();
    if (language === "python") {
      const m = PY_DEF.exec(lines[i]);
      if (m && !prev.startsWith("@") && !prev.endsWith("\\") && !insideString(lines, i, /"""|'''/g))
        return { line: i, symbol: m[1], comment: "#" };
    } else if (language === "java") {
      const m = JAVA_METHOD.exec(lines[i]);
      if (m && (prev === "" || prev === "}" || prev.endsWith("*/") || prev.endsWith("{")) && !insideString(lines, i, /\/\*|\*\//g)) {
        return { line: i, symbol: m[1], comment: "    //" };
      }
    } else if (language === "javascript") {
      const m = JS_FUNCTION.exec(lines[i]);
      if (m && !/[`\\,]\s*$/.test(prev) && !insideString(lines, i, /\/\*|\*\//g)) return { line: i, symbol: m[1], comment: "//" };
    }
  }
  return null;
}

/** Nested node_modules renamed (the scanner would skip them), so that every copied file is a plain project file. */
export const renamed = (rel: string) =>
  rel
    .split("/")
    .map((s) => (s === "node_modules" ? "node_mods" : s))
    .join("/");

export function buildRealTree(repo: string, packageRoot: string, project: string): RealTree {
  const options = { maxDepth: 64, maxBytes: MAX_FILE_BYTES };
  const sources: { language: string; root: string; folder: string; files: string[] }[] = [];
  const add = (language: string, folder: string, roots: string[]) => {
    for (const root of roots) {
      const files = filesByLanguage([root], languageForPath, { ...options, only: new Set([language]) }).get(language) ?? [];
      sources.push({ language, root, folder, files });
    }
  };
  add("python", "python", ["/usr/lib/python3.11", "/usr/lib/python3/dist-packages"]);
  add("c", "include", ["/usr/include"]);
  add("javascript", "js", [path.join(packageRoot, "node_modules")]);
  for (const module of JDK_MODULES) add("java", "java", jdkSources(module, "speky-bench-jdk"));

  const planted: RealPlanted[] = [];
  const untagged: string[] = [];
  const composition: Record<string, number> = {};
  const eligible: Record<string, number> = {};
  let files = 0;
  let bytes = 0;
  for (const { language, root, folder, files: list } of sources) {
    for (const abs of list) {
      if (files >= TOTAL_FILES) break;
      const rel = `${folder}/${path.basename(root)}/${renamed(path.relative(root, abs).split(path.sep).join("/"))}`;
      const to = path.join(repo, rel);
      mkdirSync(path.dirname(to), { recursive: true });
      const size = statSync(abs).size;
      let plant: Plant | null = null;
      const every = PLANT_EVERY[language];
      if (every && size >= PLANT_MIN_BYTES && size <= PLANT_MAX_BYTES) {
        const text = readFileSync(abs, "utf8");
        const lines = text.split("\n");
        const found = !text.includes("speky:") ? plantIn(language, lines) : null;
        if (found && (eligible[language] = (eligible[language] ?? 0) + 1) % every === 0) {
          plant = found;
          const id = `R${String(planted.length + 1).padStart(5, "0")}`;
          lines.splice(found.line, 0, `${found.comment} speky:${project}#${id}`);
          writeFileSync(to, lines.join("\n"));
          planted.push({ file: rel, id, symbol: found.symbol });
        }
      }
      if (!plant) {
        copyFileSync(abs, to);
        untagged.push(rel);
      }
      bytes += statSync(to).size;
      files++;
      composition[language] = (composition[language] ?? 0) + 1;
    }
  }
  return { files, bytes, planted, untagged, composition };
}
