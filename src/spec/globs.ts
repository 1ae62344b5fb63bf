// Manifest globs, expanded as speky expands them (Python's Path.glob: `*` matches dot files,
// each pattern's matches sorted), safely: fast-glob follows symbolic links, so a link to an
// ancestor directory would make `**` recurse forever; the file-system adapter below cuts
// such cycles.
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { compareStrings } from "../diagnostics.js";

export type GlobResult =
  | { files: string[]; warning?: string }
  | { error: string };

/** Absolute paths of the files `pattern` (relative to root) matches, in speky's order. */
export async function expandGlob(root: string, pattern: string): Promise<GlobResult> {
  const segments = pattern.split("/");
  // An empty segment (`sub/`, `a//b`) is no pattern: fast-glob throws on it.
  const fixed = segments.findIndex((s) => s !== "" && fg.isDynamicPattern(s));
  if (fixed < 0) return literalPath(root, pattern);

  const base = segments.slice(0, fixed).join("/") || ".";
  if (!(await isDirectory(path.resolve(root, base)))) {
    return { error: `directory '${base}' not found (in the glob '${pattern}')` };
  }
  const matches = await fg(pattern, {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: true,
    suppressErrors: true,
    fs: cycleSafeFs(),
  });
  if (matches.length === 0) return { files: [], warning: `'${pattern}' matched no file` };
  return { files: matches.map((m) => path.resolve(root, m)).sort(comparePaths) };
}

async function literalPath(root: string, pattern: string): Promise<GlobResult> {
  const file = path.resolve(root, pattern);
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat) return { error: `file '${pattern}' not found` };
  if (stat.isDirectory()) {
    return { files: [], warning: `'${pattern}' is a directory; name its files, e.g. '${pattern}/*.yaml'` };
  }
  return { files: [file] };
}

async function isDirectory(dir: string): Promise<boolean> {
  const stat = await fs.promises.stat(dir).catch(() => undefined);
  return stat?.isDirectory() ?? false;
}

/** Python sorts paths part by part: `a/b` comes before `a-c`, unlike as plain strings. */
export function comparePaths(a: string, b: string): number {
  const pa = a.split(path.sep);
  const pb = b.split(path.sep);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareStrings(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/**
 * An fs adapter for fast-glob whose readdir lists nothing for a directory that is, through
 * links, one of its own ancestors. Other directories reached twice (two links to one place)
 * are still listed, so results do not depend on which path the walk reached first.
 */
function cycleSafeFs(): Partial<fg.FileSystemAdapter> {
  const real = new Map<string, string>();
  const readdir = ((dir: string, options: unknown, callback: (err: Error | null, entries: unknown[]) => void) => {
    fs.realpath(dir, (err, resolved) => {
      if (!err) {
        real.set(dir, resolved);
        for (let up = path.dirname(dir); real.has(up); up = path.dirname(up)) {
          if (real.get(up) === resolved) return callback(null, []);
          if (up === path.dirname(up)) break;
        }
      }
      (fs.readdir as (...args: unknown[]) => void)(dir, options, callback);
    });
  }) as unknown as fg.FileSystemAdapter["readdir"];
  return { readdir };
}
