// A command line's shortcuts for its one scan, never a server's: stamps without Stats objects
// (src/fs/fast-stat.ts) and V8 optimizing late in a cold scan (src/scan/read/v8-flags.ts), each
// with its measured gain where it is defined. Called by the commands that scan once and exit.
export async function useCommandLineShortcuts(): Promise<void> {
  const [{ useFastStat }, { allowLateOptimization }] = await Promise.all([
    import("../fs/fast-stat.js"),
    import("../scan/read/v8-flags.js"),
  ]);
  useFastStat();
  allowLateOptimization();
}
