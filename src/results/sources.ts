// Where a model's test results come from (read-results.ts reads them). Apart from the reader,
// so that a tree without results never loads the XML parser.
import type { Manifest } from "../loader/types.js";

export interface ResultsSources {
  manifests: readonly Manifest[];
  /** `--results` globs, relative to `cwd`. */
  globs: readonly string[];
  cwd: string;
  /** --allow-outside: no confinement. */
  allowOutside?: boolean;
}

/** Whether any results are given: only then does the model gain verification. */
export function resultsGiven(sources: Pick<ResultsSources, "manifests" | "globs">): boolean {
  return sources.globs.length > 0 || sources.manifests.some((m) => (m.test_results ?? []).length > 0);
}
