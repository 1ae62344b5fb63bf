// `npm run bench -- results`: verification from test results (issue 27). A tree of 5,000
// tagged pytest tests (100 files of 50), each parametrized 10 times in a pytest-shaped results
// file: 50,000 testcases, one in 50 failing. Measured in-process: reading the file (saxes,
// streamed) and matching every testcase to its tagged test, each best of 5 with the load
// average beside it (aim: under 1 s for both); then the MCP server's reload after the
// results file changes: from the write to the first get_test answer that tells the new
// outcome, best of 3.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FILES = 100;
const PER_FILE = 50;
const PARAMS = 10;
const loadAverage = () => `load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;

/** The tree: manifest, specs, tagged tests; the results written by `writeResults`. */
export function writeTree(dir: string): void {
  const tests: string[] = ["kind: tests", "category: bench", "tests:"];
  const reqs: string[] = ["kind: requirements", "category: bench", "requirements:"];
  for (let r = 0; r < FILES; r++) reqs.push(`  - id: R-${r}`, `    long: Requirement ${r}.`);
  mkdirSync(path.join(dir, "tests"), { recursive: true });
  mkdirSync(path.join(dir, "specs"), { recursive: true });
  mkdirSync(path.join(dir, "reports"), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    const lines = ["import pytest", ""];
    for (let t = 0; t < PER_FILE; t++) {
      const id = `T-${f}-${t}`;
      tests.push(`  - id: ${id}`, `    long: Test ${id}.`, `    ref: [R-${f}]`, "    steps:", "      - action: run pytest");
      lines.push(
        "",
        `class TestCase${t}:`,
        `    # speky:bench#${id}`,
        `    @pytest.mark.parametrize("n", range(${PARAMS}))`,
        "    def test_it(self, n):",
        "        pass",
        "",
      );
    }
    writeFileSync(path.join(dir, `tests/test_m${f}.py`), lines.join("\n"));
  }
  writeFileSync(path.join(dir, "specs/tests.yaml"), `${tests.join("\n")}\n`);
  writeFileSync(path.join(dir, "specs/requirements.yaml"), `${reqs.join("\n")}\n`);
  writeFileSync(
    path.join(dir, "speky.yaml"),
    "kind: project\nname: bench\nfiles: [specs/*.yaml]\ncode_sources: [tests/*.py]\ntest_results: [reports/*.xml]\n",
  );
}

/** 50,000 testcases; `failing` decides whether T-0-0's case 3 fails (the reload bench flips it). */
export function writeResults(dir: string, failing: boolean): void {
  const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>', '<testsuites><testsuite name="pytest" timestamp="2026-01-01T00:00:00">'];
  let k = 0;
  for (let f = 0; f < FILES; f++) {
    for (let t = 0; t < PER_FILE; t++) {
      for (let n = 0; n < PARAMS; n++, k++) {
        const fails = (f === 0 && t === 0 && n === 3 && failing) || (k % 50 === 7 && !(f === 0 && t === 0));
        const body = fails ? `<failure message="AssertionError: case ${n}">assert False\nE  AssertionError</failure>` : "";
        out.push(`<testcase classname="tests.test_m${f}.TestCase${t}" name="test_it[${n}]" time="0.001">${body}</testcase>`);
      }
    }
  }
  out.push("</testsuite></testsuites>", "");
  writeFileSync(path.join(dir, "reports/pytest.xml"), out.join("\n"));
}

const best = (xs: number[]) => Math.min(...xs);

// speky:speky-ts#RESULTS-SPEED
// speky:speky-ts#TEST-RESULTS-BENCH
export async function benchResults(log: (line?: string) => void): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "speky-bench-results-"));
  const cache = mkdtempSync(path.join(os.tmpdir(), "speky-bench-cache-"));
  process.env.SPEKY_CACHE_DIR = cache;
  try {
    writeTree(dir);
    writeResults(dir, true);
    const { loadSpecs } = await import("../dist/loader/load.js");
    const { scanSpecs } = await import("../dist/model/load-model.js");
    const { readResults } = await import("../dist/results/read-results.js");
    const { verify } = await import("../dist/model/verification.js");
    const loaded = await loadSpecs([path.join(dir, "speky.yaml")]);
    const model = await scanSpecs(loaded.specs!, { cwd: dir, results: [] });
    const sources = { manifests: model.specs.manifests, globs: [], cwd: dir };
    const reads: number[] = [];
    const matches: number[] = [];
    let summary = "";
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const read = await readResults(sources);
      const t1 = performance.now();
      const v = await verify(model, read);
      const t2 = performance.now();
      reads.push(t1 - t0);
      matches.push(t2 - t1);
      summary = `${v.testcasesRead} testcases, ${v.testcasesMatched} matched, ${[...v.tests.values()].filter((s) => s === "failed").length} test plans failed`;
    }
    log(`results: ${summary}`);
    log(`  read (saxes, streamed): best ${best(reads).toFixed(0)} ms of 5 (${loadAverage()})`);
    log(`  match and statuses:     best ${best(matches).toFixed(0)} ms of 5`);
    const total = best(reads.map((r, i) => r + matches[i]));
    log(`  read + match:           best ${total.toFixed(0)} ms (aim < 1000 ms: ${total < 1000 ? "met" : "missed"})`);
    log(`  reload of speky-mcp after the results file changed: ${await benchReload(dir, log)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Write → first get_test answer telling the new outcome of T-0-0, best of 3. */
async function benchReload(dir: string, log: (line?: string) => void): Promise<string> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(PACKAGE_ROOT, "bin/speky-mcp.js"), "--quiet", path.join(dir, "speky.yaml")],
    cwd: dir,
    env: { SPEKY_CACHE_DIR: process.env.SPEKY_CACHE_DIR ?? "" },
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  const statusOf = async () => {
    const r = await client.callTool({ name: "get_test", arguments: { id: "T-0-0" } });
    return (r.structuredContent as { verification?: { status: string } }).verification?.status;
  };
  try {
    while ((await statusOf()) !== "failed") await new Promise((resolve) => setTimeout(resolve, 20));
    const times: number[] = [];
    let failing = true;
    for (let i = 0; i < 3; i++) {
      failing = !failing;
      const want = failing ? "failed" : "passed";
      const started = performance.now();
      writeResults(dir, failing);
      let polls = 0;
      while ((await statusOf()) !== want) {
        if (++polls > 3000) throw new Error("the server never served the new results");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      times.push(performance.now() - started);
      log(`    run ${i + 1}: ${times[i].toFixed(0)} ms (${loadAverage()})`);
    }
    return `best ${best(times).toFixed(0)} ms of 3 (debounce 100 ms included)`;
  } finally {
    await client.close();
  }
}
