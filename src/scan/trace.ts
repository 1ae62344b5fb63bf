// SPEKY_SCAN_TRACE=1: a scan's phase timings on stderr (for the bench and profiling).
const TRACING = process.env.SPEKY_SCAN_TRACE === "1";
let lastTrace = performance.now();

export function trace(what: string): void {
  if (!TRACING) return;
  const now = performance.now();
  const rss = (process.memoryUsage.rss() / 1e6).toFixed(0);
  process.stderr.write(`speky scan: ${what} (${(now - lastTrace).toFixed(0)} ms; at ${now.toFixed(0)} ms; rss ${rss} MB)\n`);
  lastTrace = now;
}
