// The documented JSON Schema of `speky scan` accepts what the scanner really prints.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { scanOutput } from "../../src/scan/output.js";
import { scan } from "../../src/scan/scan.js";
import { REPO, SCAN_FIXTURES } from "./scan-helpers.js";

const schema = JSON.parse(readFileSync(path.join(REPO, "schema/scan.schema.json"), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

describe("scan output schema", () => {
  it("validates the scan of every fixture, with links", async () => {
    const result = await scan([
      {
        project: "fx",
        root: SCAN_FIXTURES,
        patterns: ["**/*.*"],
        source_links: { url: "https://example.invalid/org/repo", branch: "main", gitRoot: REPO },
      },
    ]);
    const output = JSON.parse(JSON.stringify(scanOutput(result)));
    expect(output.references.length).toBeGreaterThan(100);
    const links = "https://example.invalid/org/repo/blob/main/fixtures/scan/";
    expect(output.references.every((r: { url?: string }) => r.url?.startsWith(links))).toBe(true);
    expect(output.diagnostics.length).toBeGreaterThan(0);
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
  });

  // speky:speky-ts#TNAV-SPANS
  it("gives every symbol reference an end_line, and still accepts version 1 documents without it", async () => {
    const result = await scan([{ project: "fx", root: SCAN_FIXTURES, patterns: ["**/*.*"] }]);
    const output = JSON.parse(JSON.stringify(scanOutput(result)));
    const withSymbol = output.references.filter((r: { symbol: string | null }) => r.symbol !== null);
    expect(withSymbol.length).toBeGreaterThan(100);
    for (const r of withSymbol) expect(r.end_line, `${r.file}:${r.line}`).toBeGreaterThanOrEqual(r.line);
    expect(output.references.filter((r: { symbol: string | null; end_line?: number }) => r.symbol === null && r.end_line)).toEqual([]);
    const older = { ...output, references: output.references.map(({ end_line: _, ...r }: { end_line?: number }) => r) };
    expect(validate(older), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...output, references: [{ ...output.references[0], end_line: 0 }] })).toBe(false);
  });

  it("rejects a reference without its symbol field", () => {
    const bad = {
      version: 1,
      references: [{ project: "fx", id: "A", file: "a.py", line: 1, column: 1, tag_line: 1, tag_column: 1 }].map((r) => ({
        ...r,
        kind: null,
        is_test: false,
        language: "python",
      })),
      diagnostics: [],
      stats: { files: 1, files_with_tags: 1, tags: 1, ms: 0 },
    };
    expect(validate(bad)).toBe(false);
  });
});
