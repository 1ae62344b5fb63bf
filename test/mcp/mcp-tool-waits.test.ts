// Which tools wait for the first scan is declared on each tool's definition (`waitsForScan`),
// and it is the list docs/mcp-tools.md gives ("While the first scan runs").
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/mcp/tools/index.js";
import { verificationStatusTool } from "../../src/mcp/tools/status/verification-status.js";
import { REPO } from "../support/process.js";

describe("the tools that wait for the first scan", () => {
  // speky:speky-ts#TMCP-WAITS-DECLARED
  it("are those whose definition says so, and the docs list exactly them", () => {
    const doc = readFileSync(path.join(REPO, "docs/mcp-tools.md"), "utf8");
    const paragraph = doc.slice(doc.indexOf("- The others wait for the scan"), doc.indexOf("sending `notifications/progress`"));
    const documented = [...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
    const declared = [...TOOLS, verificationStatusTool]
      .filter((t) => t.waitsForScan === true)
      .map((t) => t.name)
      .sort();
    expect(declared).toEqual(documented);
    expect(declared).toContain("verification_status");
  });
});
