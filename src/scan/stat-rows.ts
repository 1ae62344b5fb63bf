// A file's stamp as three numbers of a Float64Array (size, mtimeMs, ctimeMs): what a warm scan
// compares with the cache, without keeping a Stats object per file.
import { statSync } from "node:fs";

/** The size of a path that is missing or not a regular file: no cached stamp has it. */
export const NOT_A_FILE = -1;

/** Stamps of `paths[from..to)` into the same rows of `rows` (stat follows links, as the read does). */
export function statInto(paths: readonly string[], rows: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const st = statSync(paths[i], { throwIfNoEntry: false });
    const at = i * 3;
    if (st === undefined || !st.isFile()) {
      rows[at] = NOT_A_FILE;
      continue;
    }
    rows[at] = st.size;
    rows[at + 1] = st.mtimeMs;
    rows[at + 2] = st.ctimeMs;
  }
}
