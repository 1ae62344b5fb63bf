// A command line's shortcuts for its one scan: stamps without Stats objects (src/fs/fast-stat.ts,
// never a server's), V8 optimizing late in a cold scan (src/scan/read/v8-flags.ts; speky-mcp
// allows it too), each with its measured gain where it is defined, and an exit without Node's
// teardown once all is said and written. Called by the commands that scan once and exit.

/** Set by a command that scans once: its process may end as soon as its work is out (exitOnceDone). */
let oneShot = false;

export async function useCommandLineShortcuts(): Promise<void> {
  const [{ useFastStat }, { allowLateOptimization }] = await Promise.all([
    import("../fs/fast-stat.js"),
    import("../scan/read/v8-flags.js"),
  ]);
  useFastStat();
  allowLateOptimization();
  oneShot = true;
}

/** Resolves once what was written to `stream` before has been handed to the system (or failed). */
const flushed = (stream: NodeJS.WritableStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

/**
 * Ends the process of a command that scanned once, with its exit code, as soon as its scan cache
 * is written and its output flushed: Node's own teardown (the heap freed page by page, its
 * threads joined) is skipped. A warm manifest scan of the bench tree: -5 ms wall, -4 to -6 ms
 * CPU (medians of 31 and 41 pairs, 2026-12-04). The servers, and the commands that never
 * scanned, end as Node ends them.
 */
export async function exitOnceDone(): Promise<void> {
  if (!oneShot) return;
  await (await import("../scan/cache/cache-save.js")).cacheWritten();
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

// speky:speky-ts#CHECK-LAZY-MODULES
/**
 * Starts loading the scan cache's modules, for a command about to load specs and then scan with
 * the cache: they compile while the loader waits on its reads, not after it. A warm manifest
 * scan of the bench tree, paired 15 rounds twice: 234-236 -> 226-227 ms (medians). Not with
 * --no-cache: then no cache module loads at all.
 */
export function preloadScanCache(cache: boolean): void {
  if (cache) void import("../scan/cache/cache.js");
}
