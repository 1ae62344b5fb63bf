// Shared by the scan-*.test.ts suites: the output document of a fixture folder.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { scanOutput, type ScanOutput } from "../src/scan/output.js";
import { scanPaths } from "../src/scan/scan.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SCAN_FIXTURES = path.join(REPO, "fixtures/scan");

/** What expected.json holds: the scan output without its timing. */
export type FixtureOutput = Omit<ScanOutput, "stats"> & { stats: Omit<ScanOutput["stats"], "ms"> };

export async function scanFixture(folder: string): Promise<FixtureOutput> {
  const output = scanOutput(await scanPaths("fx", ["."], folder));
  const { ms: _ms, ...stats } = output.stats;
  return { ...output, stats };
}
