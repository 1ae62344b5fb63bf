// The cache is written right after the scan has answered (a few hundred ms for a big one):
// the CLI prints and the MCP server answers first; the process waits for it before exiting.

import { trace } from "../trace.js";
import type { ScanCache } from "./cache.js";

let pendingSave: Promise<void> = Promise.resolve();

export function saveLater(cache: ScanCache): void {
  pendingSave = pendingSave.then(
    () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          try {
            cache.save();
            trace("cache saved");
          } finally {
            resolve();
          }
        }),
      ),
  );
}

/** Resolves once the caches of the scans so far are written (tests, tools). */
export function cacheWritten(): Promise<void> {
  return pendingSave;
}
