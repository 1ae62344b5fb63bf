// The scan cache's key: what a cache file must have been written by (speky-ts's version, the
// tree-sitter packages', grammars/ and the scanner's own code), computed once per build
// (build-key.ts) and checked by a stat of each file it covers.
import { createHash } from "node:crypto";
import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../../version.js";
import { GRAMMARS_DIR } from "../grammar/languages.js";
import { trace } from "../trace.js";

export const FORMAT = "speky-ts-scan-cache";
export const FORMAT_VERSION = 8;

export function filesOf(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && keep(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve(name));
    for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
      const file = path.join(d, "package.json");
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? "?";
      }
    }
  } catch {
    // the key then only misses this part
  }
  return "?";
}

let key: string | undefined;
let fingerprint: string | undefined;
/** BUILD_KEY_FILE's key where its fingerprint is this build's, else "" (read once per process). */
let builtKey: string | undefined;

/** Written by `npm run build` beside the built scanner (build-key.ts): the key, computed once per build. */
const BUILD_KEY_FILE = fileURLToPath(new URL("./build-key.json", import.meta.url));

/** The scanner's code files under `dir` (its subfolders included), as paths relative to it, sorted. */
function codeFiles(dir: string, rel = ""): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...codeFiles(dir, child));
    else if (e.isFile() && /\.(?:js|ts)$/.test(e.name)) out.push(child);
  }
  return out;
}

/** The files the key covers: grammars/ and the scanner's own code (src/scan or dist/scan, every folder). */
function keySources(): [string, string[]][] {
  const codeDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  return [
    [GRAMMARS_DIR, filesOf(GRAMMARS_DIR, () => true)],
    // The shipped grammars, by the sha256 of each (scripts/grammars.mjs), not by package version.
    [path.join(GRAMMARS_DIR, "wasm"), filesOf(path.join(GRAMMARS_DIR, "wasm"), (n) => n === "SOURCES.json")],
    [codeDir, codeFiles(codeDir)],
  ];
}

/** Names, sizes and mtimes of the key's files: a stat each, no read. */
export function keyFingerprint(): string {
  const hash = createHash("sha256");
  for (const [dir, names] of keySources()) {
    for (const name of names) {
      const st = statSync(path.join(dir, name), { throwIfNoEntry: false });
      hash.update(`${dir}/${name}\0${st?.size}\0${st?.mtimeMs}\0`);
    }
  }
  return hash.digest("hex");
}

/** This process's fingerprint of the files the key covers (taken once). */
export function buildFingerprint(): string {
  fingerprint ??= keyFingerprint();
  return fingerprint;
}

/**
 * The build's key when it is known without hashing: taken already, or the one `npm run build`
 * wrote in BUILD_KEY_FILE while the files it covers keep their sizes and mtimes. Null in an
 * installed package (npm gives every file its unpacking time as mtime) and after a bare `tsc`.
 */
export function knownCacheKey(): string | null {
  if (key) return key;
  builtKey ??= keyOfBuild();
  if (builtKey) key = builtKey;
  return key ?? null;
}

function keyOfBuild(): string {
  try {
    const built = JSON.parse(readFileSync(BUILD_KEY_FILE, "utf8")) as { key?: unknown; fingerprint?: unknown };
    if (isKey(built.key) && built.fingerprint === buildFingerprint()) return built.key;
  } catch {
    // not built, or running from source
  }
  return "";
}

const isKey = (x: unknown): x is string => typeof x === "string" && /^[0-9a-f]{64}$/.test(x);

/** The build's key: known (knownCacheKey), else computed by hashing the files it covers. */
export function cacheKey(): string {
  key ??= knownCacheKey() ?? hashedKey();
  return key;
}

function hashedKey(): string {
  const hashed = computeCacheKey();
  trace("cache key hashed");
  return hashed;
}

/**
 * Takes `writerKey` for this build's key: the caller has verified the signature of a cache file
 * written by a build whose fingerprint is this build's (buildFingerprint), so that build's key
 * is this one's and the files need no hashing. An installed package thus hashes them on its
 * first scan only (its cache files carry the fingerprint); a key taken already is kept.
 */
// speky:speky-ts#CACHE-KEY-INSTALLED
export function adoptCacheKey(writerKey: string): void {
  if (isKey(writerKey)) key ??= writerKey;
}

/** speky-ts version + tree-sitter versions + grammars/ contents + the scanner's code. */
export function computeCacheKey(): string {
  const hash = createHash("sha256");
  hash.update(`${FORMAT} ${FORMAT_VERSION} speky-ts ${VERSION}\0`);
  hash.update(`web-tree-sitter ${packageVersion("web-tree-sitter")}\0`);
  for (const [dir, names] of keySources()) {
    for (const name of names) {
      hash.update(`${name}\0`);
      hash.update(readFileSync(path.join(dir, name)));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}
