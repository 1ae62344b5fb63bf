// Peak memory of the built speky-mcp on issue 12's reproduction 9 (docs/security.md): a
// generated project of 250,000 requirements and 25,000 tests, served over stdio, then
// resources/list through every page, every list tool without paging, search_text, every list
// tool through all its pages (limit 1,000) and with a huge limit. Prints the server's resident
// and peak resident memory (Linux /proc VmRSS, VmHWM) after each step.
// Usage: npm run bench:memory [-- REQUIREMENTS TESTS]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateLargeSpec } from "../generate.js";

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/commands/mcp.js");
const LISTS = ["search_requirements", "test_plan_coverage", "least_tested_requirements", "list_all_ids", "search_tests"];
const TIMEOUT = { timeout: 600_000 };

function memory(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const mb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024);
    return `rss ${mb("VmRSS")} MB, peak ${mb("VmHWM")} MB`;
  } catch {
    return "(no /proc on this system)";
  }
}

async function main(): Promise<void> {
  const [requirements = 250_000, tests = 25_000] = process.argv.slice(2).map(Number);
  const dir = mkdtempSync(path.join(tmpdir(), "speky-mcp-memory-"));
  try {
    const manifest = await generateLargeSpec(dir, { requirements, tests });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, manifest, "--no-watch", "--quiet"],
      cwd: dir,
      stderr: "inherit",
      env: { PATH: process.env.PATH ?? "", SPEKY_CACHE_DIR: path.join(dir, ".cache") },
    });
    const client = new Client({ name: "speky-ts-memory-bench", version: "0" });
    const started = performance.now();
    await client.connect(transport);
    const pid = transport.pid!;
    const step = (label: string) =>
      console.log(`${label.padEnd(48)} ${memory(pid)}  ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`speky-mcp on ${requirements.toLocaleString("en-US")} requirements and ${tests.toLocaleString("en-US")} tests`);
    // get_status answers at once; get_requirement waits for the background scan.
    await client.callTool({ name: "get_requirement", arguments: { id: "REQ-00010" } }, undefined, TIMEOUT);
    step("loaded and scanned");
    let cursor: string | undefined;
    do cursor = (await client.listResources(cursor === undefined ? {} : { cursor })).nextCursor;
    while (cursor !== undefined);
    step("resources/list, every page");
    for (const name of LISTS) await client.callTool({ name, arguments: {} }, undefined, TIMEOUT);
    step("every list tool without paging");
    await client.callTool({ name: "search_text", arguments: { query: "system case" } }, undefined, TIMEOUT);
    step("search_text");
    for (const name of LISTS) {
      let next: string | undefined;
      do {
        const answer = await client.callTool({ name, arguments: { limit: 1000, ...(next ? { cursor: next } : {}) } }, undefined, TIMEOUT);
        next = (answer.structuredContent as { nextCursor?: string }).nextCursor;
      } while (next !== undefined);
    }
    step("every list tool, every page of 1,000");
    for (const name of LISTS) await client.callTool({ name, arguments: { limit: 1e9 } }, undefined, TIMEOUT);
    step("every list tool with limit 1e9");
    await client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
