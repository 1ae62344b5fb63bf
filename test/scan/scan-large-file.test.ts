// Files too large to parse have their tags found in their bytes (src/scan/engine/large-file.ts),
// never decoded whole: the same tags at the same places as in the decoded text, and three such
// files of 100 MB scanned by the pool within a bound of memory across all its threads.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { decode, tooLargeMessage, unscanned } from "../../src/scan/engine/file.js";
import { largeFileTags } from "../../src/scan/engine/large-file.js";
import { MAX_RSS_MB, runSpekyMeasured } from "../support/measured.js";
import { tempDir } from "../support/process.js";

const T = "speky" + ":"; // the marker, kept out of this file's own comments
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("tags of a file too large to parse", () => {
  // speky:speky-ts#TSCAN-LARGE-FILE
  it("are the decoded text's tags, at the same lines and columns", () => {
    const piece = fc.constantFrom(
      "\n",
      "\r",
      "\r\n",
      " ",
      "é",
      "😀",
      "\uFEFF",
      "x",
      `${T}p#A-1`,
      `${T}q#B`,
      `${T}//not`,
      `${T}<project>`,
      `${T}bad`,
      "\xff",
      "  // ",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.boolean(), (parts, bom) => {
        const text = (bom ? "\uFEFF" : "") + parts.join("");
        const bytes = Buffer.from(text.replace("\xff", "\u00ff"), "utf8");
        const invalid = Buffer.concat([bytes, Buffer.from([0xc3]), Buffer.from(`${T}z#Z`)]);
        for (const buffer of [bytes, invalid]) {
          const decoded = decode(buffer);
          if (decoded === null) continue;
          const warning = tooLargeMessage(buffer.length);
          expect(largeFileTags(buffer, warning)).toEqual(unscanned(decoded, warning, false));
        }
      }),
      { seed: 30, numRuns: 2000 },
    );
  });

  // speky:speky-ts#TSCAN-BYTES-IN-FLIGHT
  it("of three 100 MB files, scanned by the pool, stay under the memory bound of hostile inputs", () => {
    const dir = tempDir("speky-large-files-");
    dirs.push(dir);
    mkdirSync(path.join(dir, "src"));
    const line = `x = 1  # ${"a".repeat(60)}\n`;
    const body = line.repeat(Math.floor((100 * 1024 * 1024) / line.length));
    for (let i = 0; i < 3; i++) writeFileSync(path.join(dir, "src", `big${i}.py`), `# ${T}p#BIG-${i}\n${body}`);
    const run = runSpekyMeasured(["scan", "--no-cache", "--project", "p", "src"], dir);
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { diagnostics: { file: string; line: number; column: number; message: string }[] };
    expect(doc.diagnostics.map((d) => [d.file, d.line, d.column])).toEqual([0, 1, 2].map((i) => [`src/big${i}.py`, 1, 3]));
    // Before the budget: 1.05 GB (each thread held a file and its decoded text; three 250 MB
    // files: 2.6 GB, now 850 MB); measured now about 390 MB.
    expect(run.peakMB).toBeLessThan(MAX_RSS_MB);
  });
});
