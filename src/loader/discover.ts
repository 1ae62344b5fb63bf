// Zero configuration: the top-level manifests of the workspace folders. A manifest is a
// YAML/TOML file declaring `kind: project`; a top-level one is not loaded as a sub-project
// by another. `speky.yaml` at a folder's root comes first. The walk is bounded: the
// workspace can be a huge or hostile tree.
import fs from "node:fs";
import path from "node:path";
import { compareStrings } from "../diagnostics.js";
import { boundaryFor } from "../fs/boundary.js";
import { GlobWalker } from "../fs/globs.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { FileDiagnostics } from "./file-diagnostics.js";
import { entryOf, stringValue } from "./format/node.js";
import { readToml } from "./toml/source.js";
import { readYaml } from "./yaml/source.js";

const MAX_DEPTH = 8;
const MAX_ENTRIES = 50_000;
const MAX_MANIFEST_BYTES = 256 * 1024;
const SKIPPED_DIRS = new Set([".git", "node_modules", ".hg", ".svn", "dist", "build", "target", ".venv", "venv", "__pycache__"]);
const MANIFEST_EXTENSIONS = new Set([".yaml", ".yml", ".toml"]);
const PROJECT_KIND = /^kind\s*[:=]\s*["']?project["']?\s*(#.*)?$/m;

/** Candidate manifest files under `folder`, breadth first, never following links. */
function candidates(folder: string): string[] {
  const found: string[] = [];
  let entries = 0;
  let level = [folder];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let list: fs.Dirent[];
      try {
        list = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of list) {
        if (++entries > MAX_ENTRIES) return found;
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) next.push(abs);
        } else if (entry.isFile() && MANIFEST_EXTENSIONS.has(path.extname(entry.name).toLowerCase()) && declaresProject(abs)) {
          found.push(abs);
        }
      }
    }
    level = next.sort(compareStrings);
  }
  return found;
}

/** Read without following a link or blocking on a FIFO swapped in after the listing. */
function declaresProject(abs: string): boolean {
  const read = readRegularSync(abs, { noFollow: true, maxBytes: MAX_MANIFEST_BYTES });
  return !isRefusal(read) && PROJECT_KIND.test(read.bytes.toString("utf8"));
}

/** The files a manifest's `files` globs reach (where sub-projects are found). */
async function reached(manifest: string): Promise<string[]> {
  const read = readRegularSync(manifest, { noFollow: true, maxBytes: MAX_MANIFEST_BYTES });
  if (isRefusal(read)) return [];
  const text = read.bytes.toString("utf8");
  const report = new FileDiagnostics(manifest, []);
  const root = path.extname(manifest).toLowerCase() === ".toml" ? readToml(text, report) : await readYaml(text, report);
  if (root?.type !== "map") return [];
  const base = path.resolve(path.dirname(manifest), stringValue(entryOf(root, "root_directory")?.value) ?? ".");
  const files = entryOf(root, "files")?.value;
  const out: string[] = [];
  // The same reach and confinement as the loader's (src/fs/globs.ts).
  const walker = new GlobWalker();
  const boundary = boundaryFor(manifest);
  for (const pattern of files?.type === "seq" ? files.items : []) {
    const glob = stringValue(pattern);
    if (glob === undefined) continue;
    const result = await walker.expand(base, glob, { boundary, ignore: false, folder: null });
    out.push(...result.files.map((f) => f.abs));
  }
  return out;
}

// speky:speky-ts#LSP-DISCOVER
/** Top-level manifests of the folders: `speky.yaml` at a folder's root first, then by path. */
export async function discoverManifests(folders: readonly string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const folder of folders) for (const file of candidates(folder)) all.add(file);
  const sub = new Set<string>();
  for (const manifest of all) for (const file of await reached(manifest)) if (file !== manifest) sub.add(file);
  const rank = (file: string) => (folders.some((f) => path.join(f, "speky.yaml") === file) ? 0 : 1);
  return [...all].filter((f) => !sub.has(f)).sort((a, b) => rank(a) - rank(b) || compareStrings(a, b));
}
