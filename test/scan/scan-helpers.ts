// Shared by the scan-*.test.ts suites: the output document of a fixture folder.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ScanOutput, scanOutput } from "../../src/scan/output.js";
import { scanPaths } from "../../src/scan/scan.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SCAN_FIXTURES = path.join(REPO, "fixtures/scan");

/** What expected.json holds: the scan output without its timing. */
export type FixtureOutput = Omit<ScanOutput, "stats"> & { stats: Omit<ScanOutput["stats"], "ms"> };

export async function scanFixture(folder: string): Promise<FixtureOutput> {
  const output = scanOutput(await scanPaths("fx", ["."], folder));
  const { ms: _ms, ...stats } = output.stats;
  return { ...output, stats };
}

/**
 * Up to `limit` files under `dir` (sorted, depth first) that `keep` accepts, between
 * `minBytes` and 60,000 bytes: real files of this machine for the scanner's equivalence tests.
 */
export function filesUnder(dir: string, keep: (file: string) => boolean, limit: number, minBytes = 0, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of entries) {
    if (out.length >= limit) break;
    const file = path.join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st?.isDirectory()) filesUnder(file, keep, limit, minBytes, out);
    else if (st?.isFile() && st.size >= minBytes && st.size < 60_000 && keep(file)) out.push(file);
  }
  return out;
}
