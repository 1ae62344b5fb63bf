// Load: one speky-mcp process answers 10,000 sequential calls, then waves of 200 concurrent
// calls, every one of them, with its memory flat. RSS is read from /proc/<pid>/status (VmRSS)
// and printed; the assertion is a generous bound on growth, never a timing.
import { readFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedState, runTool } from "../../src/mcp/tool.js";
import { TOOLS } from "../../src/mcp/tools/index.js";
import { loadModel } from "../../src/model/load-model.js";
import { RawServer } from "../support/mcp.js";
import { REPO } from "../support/process.js";

const SEQUENTIAL = 10_000;
const CONCURRENT = 200;
const WAVES = 5;
const MAX_GROWTH_MB = 100;

type Json = Record<string, any>;

/** The calls an agent makes, domain errors included; distinct arguments now and then. */
function callFor(n: number): { name: string; arguments: Json } {
  switch (n % 12) {
    case 0:
      return { name: "list_all_ids", arguments: {} };
    case 1:
      return { name: "get_requirement", arguments: { id: "REQ-BASE" } };
    case 2:
      return { name: "get_requirement", arguments: { id: `NOPE-${n}` } };
    case 3:
      return { name: "get_test", arguments: { id: "T-AUTO" } };
    case 4:
      return { name: "search_requirements", arguments: { tag: "auth" } };
    case 5:
      return { name: "search_tests", arguments: { tester_of: "REQ-ALL" } };
    case 6:
      return { name: "test_plan_coverage", arguments: {} };
    case 7:
      return { name: "least_tested_requirements", arguments: { count: n % 5 } };
    case 8:
      return { name: "list_references_to", arguments: { id: "REQ-BASE" } };
    case 9:
      return { name: "list_all_tags", arguments: {} };
    case 10:
      return { name: "get_requirement", arguments: { id: "REQ-ALL" } };
    default:
      return { name: "get_test", arguments: { id: n % 2 ? "T-MANUAL" : `T-NOPE-${n}` } };
  }
}

let server: RawServer;
const waiting = new Map<number, (answer: Json) => void>();
let nextId = 1;

beforeAll(async () => {
  server = new RawServer(["fixtures/mcp/speky.yaml", "--quiet"]);
  await server.initialize();
  let partial = "";
  server.child.stdout.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      if (line === "") continue;
      const answer = JSON.parse(line) as Json;
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    }
    server.stdout = ""; // RawServer keeps everything it reads: not needed past initialize
  });
});

afterAll(async () => {
  expect(await server.endInput()).toBe(0);
});

function call(params: { name: string; arguments: Json }): Promise<Json> {
  const id = nextId++;
  const answered = new Promise<Json>((resolve) => waiting.set(id, resolve));
  server.request(id, "tools/call", params);
  return answered.then((answer) => {
    expect(answer.id).toBe(id);
    return answer;
  });
}

function expectAnswered(answer: Json, params: { name: string; arguments: Json }): void {
  const label = JSON.stringify(params);
  expect(answer.error, label).toBeUndefined();
  const unknown = Object.values(params.arguments).some((v) => typeof v === "string" && v.includes("NOPE"));
  expect(answer.result.isError === true, label).toBe(unknown);
  expect(answer.result.structuredContent, label).toBeTypeOf("object");
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]);
  return Math.round(kb / 102.4) / 10;
}

describe("load on one server", () => {
  const rss: Record<string, number> = {};

  it(`answers ${SEQUENTIAL.toLocaleString("en")} sequential calls, every one`, async () => {
    const pid = server.child.pid!;
    rss.start = rssMb(pid);
    // Warm up first (JIT, the answer cache): growth is measured from a steady state.
    for (let n = 0; n < 500; n++) expectAnswered(await call(callFor(n)), callFor(n));
    rss.warm = rssMb(pid);
    let answered = 0;
    for (let n = 0; n < SEQUENTIAL; n++) {
      const params = callFor(n);
      expectAnswered(await call(params), params);
      answered++;
    }
    expect(answered).toBe(SEQUENTIAL);
    rss.sequential = rssMb(pid);
  });

  it(`answers ${WAVES} waves of ${CONCURRENT} concurrent calls, every one, with memory flat`, async () => {
    const pid = server.child.pid!;
    for (let wave = 0; wave < WAVES; wave++) {
      const batch = Array.from({ length: CONCURRENT }, (_, k) => callFor(wave * CONCURRENT + k));
      const answers = await Promise.all(batch.map((params) => call(params)));
      for (const [k, answer] of answers.entries()) expectAnswered(answer, batch[k]);
    }
    rss.concurrent = rssMb(pid);
    // For the record (docs/reliability.md quotes a run): RSS of the server process, in MB.
    console.log(`speky-mcp RSS (MB): ${JSON.stringify(rss)}`);
    expect(rss.concurrent - rss.warm).toBeLessThan(MAX_GROWTH_MB);
    expect(rss.sequential - rss.warm).toBeLessThan(MAX_GROWTH_MB);
    expect(server.stderr).toBe("");
  });
});

describe("the answer cache", () => {
  it("stays bounded when every call brings new arguments (100,000 unknown IDs)", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const { model } = await loadModel(["fixtures/mcp/speky.yaml"], { cwd: REPO, cache: false });
    const state = fixedState(model!);
    const tool = TOOLS.find((t) => t.name === "get_requirement")!;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 100_000; n++) expect(runTool(tool, state, { id: `NOPE-${n}` }).isError).toBe(true);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    // ~740 bytes an entry: unbounded, 100,000 entries held ~74 MB (and went on growing).
    expect(grownMb).toBeLessThan(30);
  });
});
