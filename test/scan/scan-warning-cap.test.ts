// A file cannot flood the output (issue 12, defect 7): at most WARNINGS_PER_CAUSE warnings per
// file for one cause, then one that counts the rest; references are never dropped.

import { once } from "node:events";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECTS_PER_CAUSE, WARNINGS_PER_CAUSE } from "../../src/scan/engine/cap.js";
import { MESSAGES } from "../../src/scan/engine/index.js";
import { scanPaths } from "../../src/scan/scan.js";
import { MAX_RSS_MB, runSpekyMeasured } from "../support/measured.js";
import { tempDir } from "../support/process.js";

const T = "speky" + ":"; // the marker, kept out of this file's own comments
const scratch = tempDir("speky-warning-cap-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("warnings per file are capped", () => {
  // speky:speky-ts#TNAV-WARNING-CAP
  it("a 19 MB file of a million tags gives four warnings, a small output and bounded memory", async () => {
    const big = path.join(scratch, "big.py");
    const out = createWriteStream(big);
    let chunk = "";
    for (let i = 0; i < 1_000_000; i++) {
      chunk += `# ${T}big#R${i}\n`;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await once(out, "drain");
        chunk = "";
      }
    }
    out.end(chunk);
    await once(out, "finish");
    const run = runSpekyMeasured(["scan", "--no-cache", "--project", "big", "big.py"], scratch);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.length).toBeLessThan(4096);
    const doc = JSON.parse(run.stdout) as { references: unknown[]; diagnostics: { line: number; message: string }[] };
    expect(doc.references).toEqual([]);
    const tooLarge = doc.diagnostics[0].message;
    expect(tooLarge).toMatch(/^file too large to parse \(1\d(\.\d)? MB; the limit is 4 MB\): tag not scanned$/);
    expect(doc.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, tooLarge],
      [2, tooLarge],
      [3, tooLarge],
      [4, `999997 more tags not scanned in this file: ${tooLarge.replace(/: tag not scanned$/, "")}`],
    ]);
    expect(run.peakMB).toBeGreaterThan(0);
    expect(run.peakMB).toBeLessThan(MAX_RSS_MB);
  }, 180_000);

  // speky:speky-ts#TNAV-WARNING-CAP
  it("caps tags in strings and malformed tags of a parsed file, per project and cause", async () => {
    const dir = path.join(scratch, "parsed");
    const strings = Array.from({ length: 10 }, (_, i) => `s${i} = "${T}p#S${i}"`);
    const malformed = Array.from({ length: 5 }, () => `# ${T}oops`);
    const others = Array.from({ length: PROJECTS_PER_CAUSE + 4 }, (_, i) => `o${i} = "${T}x${i}#O"`);
    const tagged = `# ${T}p#REAL\ndef real():\n    pass\n`;
    mkdirSync(dir);
    writeFileSync(path.join(dir, "a.py"), [...strings, ...malformed, ...others, tagged].join("\n"));
    const result = await scanPaths("p", ["."], dir);
    expect(result.references.map((r) => [r.id, r.symbol])).toEqual([["REAL", "real"]]);
    const messages = result.diagnostics.map((d) => [d.line, d.message]);
    expect(messages).toEqual([
      [1, MESSAGES.inString],
      [2, MESSAGES.inString],
      [3, MESSAGES.inString],
      [4, `7 more tags not scanned in this file: ${MESSAGES.inString}`],
      [11, MESSAGES.malformed],
      [12, MESSAGES.malformed],
      [13, MESSAGES.malformed],
      [14, `2 more in this file: ${MESSAGES.malformed}`],
      // Project p took one of the kept slots: the 20 other projects' tags past 15 are counted.
      [31, `5 more tags not scanned in this file: ${MESSAGES.inString} (of ${PROJECTS_PER_CAUSE}+ projects)`],
    ]);
    expect(WARNINGS_PER_CAUSE).toBe(3);
  });
});
