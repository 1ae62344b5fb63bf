// Each fixtures/scan/<language>/ folder scans to its expected.json, exactly.
// UPDATE_SCAN_FIXTURES=1 rewrites them: review the diff before committing it.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCAN_FIXTURES, scanFixture } from "./scan-helpers.js";

const folders = readdirSync(SCAN_FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("scan fixtures", () => {
  // speky:speky-ts#TSCAN-FIXTURES
  // speky:speky-ts#TGRAM-ISTEST
  // speky:speky-ts#TGRAM-TOLERANCE
  // speky:speky-ts#TGRAM-GO-EXAMPLE
  // speky:speky-ts#TGRAM-JS-ASSIGNED
  // speky:speky-ts#TGRAM-ASSIGNED-TARGET
  // speky:speky-ts#TGRAM-ENUM-MEMBERS
  // speky:speky-ts#TGRAM-GO-GROUPS
  it.each(folders)("%s scans to its expected.json", async (folder) => {
    const dir = path.join(SCAN_FIXTURES, folder);
    const actual = await scanFixture(dir);
    const expectedFile = path.join(dir, "expected.json");
    if (process.env.UPDATE_SCAN_FIXTURES) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(expectedFile, "utf8")));
  });

  it("covers every language of the table", async () => {
    const { languageTable } = await import("../../src/scan/grammar/languages.js");
    expect(folders).toEqual(expect.arrayContaining(Object.keys(languageTable().languages)));
  });
});
