// The layers of src/, written once and checked in `npm run lint`: every import between two
// folders of src/ (types and dynamic imports included) must go down, to a folder of a lower
// layer; folders of one layer never import each other (the surfaces stay apart), and nothing
// imports upward, so the folder graph has no cycle. `node scripts/layers.mjs --diagram` prints
// the diagram CONTRIBUTING.md shows.
//
// Why a script and not dependency-cruiser: dependency-cruiser reads TypeScript through the
// compiler's JavaScript API or swc, and TypeScript 7 (the native tsc this project builds with)
// ships no JavaScript API; the rule needed is one comparison of two numbers per import.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Bottom first. A folder may import the folders of the layers before its own. */
export const LAYERS = [
  { folders: ["."], what: "leaf modules at the root of src/: diagnostics, quoting, clock, turns, heap, version" },
  { folders: ["fs"], what: "the boundary, globs and ignore rules, safe reads and writes, the cache folder" },
  { folders: ["text"], what: "shared leaves: suggestions, HTML and Markdown escaping, shown paths, page places" },
  { folders: ["git"], what: "git run safely, a revision's files from its objects" },
  { folders: ["loader"], what: "manifests and spec files to a SpecSet (source_links from git)" },
  { folders: ["scan"], what: "code files to code references (walk, read, engine, cache, grammars)" },
  { folders: ["results"], what: "JUnit XML to testcases matched to tagged tests" },
  { folders: ["model"], what: "the merged model: coverage, verification, problems, navigation, answer shapes" },
  { folders: ["live", "diff"], what: "the model watched and reloaded; two models compared" },
  { folders: ["mcp", "lsp", "report", "myst", "export"], what: "the surfaces, apart from each other" },
  { folders: ["cli"], what: "the command line's shared helpers: arguments, help, default manifests" },
  { folders: ["commands"], what: "one module per command" },
  { folders: ["entry"], what: "the programs' entry points" },
];

export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");
const IMPORT = /(?:\bfrom|\bimport\(?)\s*["'](\.{1,2}\/[^"']+)["']/g;

const rank = new Map(LAYERS.flatMap((layer, i) => layer.folders.map((f) => [f, i])));
const folderOf = (src, file) => {
  const rel = path.relative(src, file).split(path.sep);
  return rel.length > 1 ? rel[0] : ".";
};

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith(".ts")) yield full;
  }
}

/** Every import of the tree `src` that breaks the layers, as `file:line: message`. */
export function violations(src = SRC) {
  const found = [];
  for (const file of sources(src)) {
    const from = folderOf(src, file);
    const lines = readFileSync(file, "utf8").split("\n");
    if (!rank.has(from)) found.push(`${path.relative(process.cwd(), file)}:1: folder src/${from} is in no layer of scripts/layers.mjs`);
    lines.forEach((line, i) => {
      for (const m of line.matchAll(IMPORT)) {
        const to = folderOf(src, path.resolve(path.dirname(file), m[1]));
        if (to === from || !rank.has(from) || !rank.has(to)) continue;
        if (rank.get(to) < rank.get(from)) continue;
        const why = rank.get(to) === rank.get(from) ? "a folder of the same layer" : "a folder of a higher layer";
        found.push(`${path.relative(process.cwd(), file)}:${i + 1}: src/${from} imports src/${to} (${m[1]}), ${why}`);
      }
    });
  }
  return found;
}

function diagram() {
  const names = (l) => l.folders.map((f) => (f === "." ? "src/*.ts" : f)).join(", ");
  const width = Math.max(...LAYERS.map((l) => names(l).length));
  return [...LAYERS]
    .reverse()
    .map((l) => `${names(l).padEnd(width + 4)}${l.what}`)
    .join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--diagram")) console.log(diagram());
  else {
    const found = violations();
    for (const v of found) console.error(v);
    if (found.length > 0) {
      console.error(`layers: ${found.length} import(s) against the layers (scripts/layers.mjs)`);
      process.exit(1);
    }
  }
}
