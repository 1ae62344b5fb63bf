// SPEKY_SCAN_TRACE=1: a scan's phase timings on stderr (for the bench and profiling).
import { nowMs } from "../clock.js";

const TRACING = process.env.SPEKY_SCAN_TRACE === "1";
let lastTrace = nowMs();

export function trace(what: string): void {
  if (!TRACING) return;
  const now = nowMs();
  const rss = (process.memoryUsage.rss() / 1e6).toFixed(0);
  const at = (process.uptime() * 1e3).toFixed(0);
  process.stderr.write(`speky scan: ${what} (${(now - lastTrace).toFixed(0)} ms; at ${at} ms; rss ${rss} MB)\n`);
  lastTrace = now;
}
