// A file's stamp as three numbers of a Float64Array (size, mtimeMs, ctimeMs): what a warm scan
// compares with the cache, without keeping a Stats object per file.
import path from "node:path";
import { statStamp } from "../../fs/fast-stat.js";

/** The size of a path that is missing or not a regular file: no cached stamp has it. */
export const NOT_A_FILE = -1;

/**
 * The path of a cache key: a key is absolute, or relative to the cache's base (`prefix`: the
 * base and a separator, or that relative to the working directory: stat-split.ts).
 */
export const pathOfKey = (key: string, prefix: string) => (path.isAbsolute(key) ? key : prefix + key);

/**
 * Stamps of `keys[from..to)` (pathOfKey) into the same rows of `rows` (stat follows links,
 * as the read does).
 */
export function statInto(keys: readonly string[], prefix: string, rows: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) if (statStamp(pathOfKey(keys[i], prefix), rows, i * 3) !== "file") rows[i * 3] = NOT_A_FILE;
}
