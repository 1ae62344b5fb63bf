// Milliseconds on the monotonic clock, for durations (a scan's `ms`, a server's turns, a bound on
// work). Not the global `performance`: its first use loads ten of Node's perf_hooks modules
// (5 ms of a fresh process, median of 31 paired runs on 2026-12-04; the bench tree's warm
// manifest scan: 4-5 ms less CPU over 72 pairs, its wall time within their noise), and
// `speky check` and `speky scan` are fresh processes. biome.json keeps `performance` out of src/.
export function nowMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
