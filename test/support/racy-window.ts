// Waiting out the scan cache's racy window (cache.ts RACY_MS): a file stamped just before a scan
// is read again by the next one, so a test that wants a replay waits until the clock is past
// every stamp it wrote by more than the window. The state the cache checks, not a guess.
import { statSync } from "node:fs";
import { RACY_MS } from "../../src/scan/cache/cache.js";

/** Until every stamp (mtime, ctime) of `paths` is older than the racy window; a missing path has none. */
export async function untilStampsTrusted(paths: string[]): Promise<void> {
  const stamps = paths.flatMap((p) => statSync(p, { throwIfNoEntry: false }) ?? []);
  const trustedFrom = Math.max(...stamps.map((st) => Math.max(st.mtimeMs, st.ctimeMs))) + RACY_MS + 1;
  while (Date.now() <= trustedFrom) await new Promise((r) => setTimeout(r, trustedFrom + 1 - Date.now()));
}
