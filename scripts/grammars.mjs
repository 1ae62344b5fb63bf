// `npm run build` (and so `prepare` and `npm pack`): copy the grammar .wasm files the language
// table names (grammars/languages.json) out of their pinned devDependencies into grammars/wasm/,
// gzipped, with each package's licence. The published package ships these files and depends on
// no grammar package: an install runs no install script and brings no native sources.
// A file already copied from the same package version and source size is kept (a rebuild costs
// a stat per grammar); --check only verifies that the copies are there and current.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "grammars/wasm");
const sourcesFile = path.join(out, "SOURCES.json");
const require = createRequire(path.join(root, "package.json"));
const table = JSON.parse(readFileSync(path.join(root, "grammars/languages.json"), "utf8"));
const check = process.argv.includes("--check");

const previous = existsSync(sourcesFile) ? JSON.parse(readFileSync(sourcesFile, "utf8")) : {};
const sources = {};
const licences = new Map();
let copied = 0;
for (const id of Object.keys(table.languages).sort()) {
  const { package: name, version, file } = table.languages[id].grammar;
  const shipped = `${path.basename(file)}.gz`;
  const kept = previous[id];
  let dir;
  try {
    dir = path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    // An installed copy of speky-ts has no grammar packages: its shipped files must be complete.
    if (kept?.package === `${name}@${version}` && existsSync(path.join(out, shipped))) {
      sources[id] = kept;
      continue;
    }
    fail(`${id}: ${name}@${version} is not installed and grammars/wasm/${shipped} is missing (run npm ci)`);
  }
  const installed = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version;
  if (installed !== version) fail(`${id}: the table pins ${name}@${version}, ${installed} is installed`);
  const source = path.join(dir, file);
  const size = statSync(source).size;
  licences.set(name, path.join(dir, "LICENSE"));
  if (kept?.package === `${name}@${version}` && kept.file === file && kept.size === size && existsSync(path.join(out, shipped))) {
    sources[id] = kept;
    continue;
  }
  if (check) fail(`${id}: grammars/wasm/${shipped} is missing or stale (run npm run build)`);
  const bytes = readFileSync(source);
  mkdirSync(out, { recursive: true });
  // gzip's header holds no time here (zlib writes 0): the same input gives the same bytes.
  writeFileSync(path.join(out, shipped), gzipSync(bytes, { level: 9 }));
  sources[id] = { package: `${name}@${version}`, file, shipped, size, sha256: createHash("sha256").update(bytes).digest("hex") };
  copied++;
}
if (!check) {
  mkdirSync(path.join(out, "licenses"), { recursive: true });
  for (const [name, licence] of licences) {
    if (existsSync(licence)) copyFileSync(licence, path.join(out, "licenses", `${name.replace(/^@/, "").replace(/\//g, "__")}.LICENSE`));
  }
  const text = `${JSON.stringify(sources, null, 2)}\n`;
  if (!existsSync(sourcesFile) || readFileSync(sourcesFile, "utf8") !== text) writeFileSync(sourcesFile, text);
}
if (copied > 0) console.log(`grammars: ${copied} of ${Object.keys(sources).length} wasm files copied into grammars/wasm/`);

function fail(message) {
  console.error(`grammars: ${message}`);
  process.exit(1);
}
