// A file's stamp as three numbers of a Float64Array (size, mtimeMs, ctimeMs): what a warm scan
// compares with the cache, without keeping a Stats object per file.
import path from "node:path";
import { statStamp } from "../fs/fast-stat.js";

/** The size of a path that is missing or not a regular file: no cached stamp has it. */
export const NOT_A_FILE = -1;

/** Where a cache keeps a path: absolute, or relative to its base (`prefix`: the base and a separator). */
export const absoluteKey = (key: string, prefix: string) => (path.isAbsolute(key) ? key : prefix + key);

/**
 * Stamps of `keys[from..to)` (absoluteKey) into the same rows of `rows` (stat follows links,
 * as the read does).
 */
export function statInto(keys: readonly string[], prefix: string, rows: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) if (statStamp(absoluteKey(keys[i], prefix), rows, i * 3) !== "file") rows[i * 3] = NOT_A_FILE;
}
