// A file's stamp as three numbers of a Float64Array (size, mtimeMs, ctimeMs): what a warm scan
// compares with the cache, without keeping a Stats object per file.
import { statSync } from "node:fs";
import path from "node:path";

/** The size of a path that is missing or not a regular file: no cached stamp has it. */
export const NOT_A_FILE = -1;

/** The size column of a walk stamp's row (a folder or an ignore file, which a walk stamps). */
export const A_WALK_STAMP = 0;

/** Where a cache keeps a path: absolute, or relative to its base (`prefix`: the base and a separator). */
export const absoluteKey = (key: string, prefix: string) => (path.isAbsolute(key) ? key : prefix + key);

/**
 * Stamps of `keys[from..to)` (absoluteKey) into the same rows of `rows` (stat follows links,
 * as the read does). The first `walkStamps` paths are a walk's folders and ignore files: their
 * rows hold A_WALK_STAMP for either, NOT_A_FILE for anything else.
 */
export function statInto(keys: readonly string[], prefix: string, rows: Float64Array, from: number, to: number, walkStamps = 0): void {
  for (let i = from; i < to; i++) {
    const st = statSync(absoluteKey(keys[i], prefix), { throwIfNoEntry: false });
    const at = i * 3;
    if (i < walkStamps) {
      rows[at] = st !== undefined && (st.isDirectory() || st.isFile()) ? A_WALK_STAMP : NOT_A_FILE;
      rows[at + 1] = st?.mtimeMs ?? 0;
      rows[at + 2] = st?.ctimeMs ?? 0;
      continue;
    }
    if (st === undefined || !st.isFile()) {
      rows[at] = NOT_A_FILE;
      continue;
    }
    rows[at] = st.size;
    rows[at + 1] = st.mtimeMs;
    rows[at + 2] = st.ctimeMs;
  }
}
