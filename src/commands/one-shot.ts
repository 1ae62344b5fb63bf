// A command line's shortcuts for its one scan: stamps without Stats objects (src/fs/fast-stat.ts,
// never a server's) and V8 optimizing late in a cold scan (src/scan/read/v8-flags.ts; speky-mcp
// allows it too), each with its measured gain where it is defined. Called by the commands that
// scan once and exit.
export async function useCommandLineShortcuts(): Promise<void> {
  const [{ useFastStat }, { allowLateOptimization }] = await Promise.all([
    import("../fs/fast-stat.js"),
    import("../scan/read/v8-flags.js"),
  ]);
  useFastStat();
  allowLateOptimization();
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
