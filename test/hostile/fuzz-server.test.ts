// Fuzzing the MCP server on the wire (fast-check): the real speky-mcp process, raw lines on
// its stdin. Every line that calls for an answer gets exactly one proper JSON-RPC answer
// (non-JSON: -32700 with id null; JSON that is no JSON-RPC message: -32600; an unknown
// method: -32601; any request: a result or an error under its own id), and the next valid
// call still answers. One server serves the whole suite: a crash anywhere fails every test.

import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawServer, TOOL_NAMES } from "../support/mcp.js";

const SEED = process.env.FUZZ_SEED === "random" ? Date.now() : Number(process.env.FUZZ_SEED ?? 20260405);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const ANSWER_TIMEOUT_MS = 20_000;

type Json = Record<string, any>;

const TOOLS = TOOL_NAMES;
const METHODS = [
  "tools/call",
  "tools/list",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "completion/complete",
  "prompts/list",
  "prompts/get",
  "ping",
  "logging/setLevel",
  "initialize",
  "no/such/method",
  "",
  "tools/call/",
  "__proto__",
  "constructor",
];
/** The methods the server implements; any other is -32601. */
const HANDLED = [
  "initialize",
  "ping",
  "tools/call",
  "tools/list",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "completion/complete",
  "prompts/list",
  "prompts/get",
];
const ARGUMENT_NAMES = ["id", "tag", "category", "tester_of", "count", "file", "path", "uri", "__proto__", "constructor", "x"];

let server: RawServer;
let nextId = 1000;

/**
 * Answers parsed as they arrive (RawServer re-reads its whole stdout on each wait, too slow
 * for megabyte answers by the hundred).
 */
const inbox: Json[] = [];
let wake: (() => void) | null = null;

beforeAll(async () => {
  server = new RawServer();
  await server.initialize();
  let partial = "";
  server.child.stdout.on("data", (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line !== "") inbox.push(JSON.parse(line));
    server.stdout = ""; // RawServer keeps a copy of everything: not needed past initialize
    wake?.();
  });
});

afterAll(async () => {
  expect(await server.endInput()).toBe(0);
  // Logs only: no warning of the runtime (a listener leak under backpressure), no stack.
  expect(server.stderr).not.toMatch(/Warning|Error|\n\s+at /);
});

/** Waits for `count` answers and returns them, failing (not hanging) when they don't come. */
async function answers(count: number): Promise<Json[]> {
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  while (inbox.length < count) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`expected ${count} answers, got ${inbox.length}\nstderr: ${server.stderr.slice(-2000)}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = null;
  }
  return inbox.splice(0, count);
}

/** A valid call that must answer whatever came before it. */
async function expectStillServing(): Promise<void> {
  const id = nextId++;
  server.request(id, "tools/call", { name: "list_all_ids", arguments: {} });
  const [answer] = await answers(1);
  expect(answer.id).toBe(id);
  expect(answer.result.structuredContent.requirements).toContain("REQ-BASE");
}

function expectProperError(answer: Json): void {
  expect(answer.jsonrpc).toBe("2.0");
  expect(Number.isInteger(answer.error.code)).toBe(true);
  expect(typeof answer.error.message).toBe("string");
  expect(answer.error.message.length).toBeGreaterThan(0);
}

/** A JSON value any depth, big strings included now and then. */
const jsonValue = fc.oneof(
  { weight: 8, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("A".repeat(1 << 20), "é".repeat(50_000), "\u0000\ud800", -0, 1e308, "../../etc/passwd", "/etc/passwd"),
  },
);

const argumentsValue = fc.oneof(fc.dictionary(fc.constantFrom(...ARGUMENT_NAMES), jsonValue, { maxKeys: 3 }), jsonValue);

describe("server fuzzing", () => {
  it("answers lines that are not JSON with -32700 and id null, one each", async () => {
    const garbage = fc
      .string({ unit: "binary", minLength: 1, maxLength: 200 })
      .map((s) => s.replace(/\n/g, " "))
      .filter((s) => {
        if (s.replace(/\r$/, "").trim() === "") return false;
        try {
          JSON.parse(s.replace(/\r$/, ""));
          return false;
        } catch {
          return true;
        }
      });
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { minLength: 1, maxLength: 5 }), async (lines) => {
        for (const line of lines) server.send(line);
        const got = await answers(lines.length);
        for (const answer of got) {
          expectProperError(answer);
          expect(answer.id).toBeNull();
          expect(answer.error.code).toBe(-32700);
        }
        await expectStillServing();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("answers JSON that is not a JSON-RPC message with -32600, keeping a usable id", async () => {
    const notMessage = jsonValue.filter((v) => !JSONRPCMessageSchema.safeParse(v).success);
    await fc.assert(
      fc.asyncProperty(notMessage, async (value) => {
        server.send(JSON.stringify(value));
        const [answer] = await answers(1);
        expectProperError(answer);
        expect(answer.error.code).toBe(-32600);
        const id = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json).id : undefined;
        expect(answer.id).toEqual(typeof id === "string" || typeof id === "number" ? id : null);
        await expectStillServing();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("answers every request once, under its id, whatever its method and params", async () => {
    const request = fc.record({
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 })),
      params: fc.option(
        fc.dictionary(fc.constantFrom("name", "arguments", "uri", "ref", "argument", "cursor", "_meta", "level"), jsonValue, {
          maxKeys: 3,
        }),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 6 }), async (requests) => {
        const ids = requests.map(() => nextId++);
        for (const [k, r] of requests.entries()) {
          server.send(JSON.stringify({ jsonrpc: "2.0", id: ids[k], method: r.method, ...(r.params ? { params: r.params } : {}) }));
        }
        const got = await answers(requests.length);
        // Requests are handled concurrently: answers come in any order, each id once.
        expect(got.map((a) => a.id).sort()).toEqual([...ids].sort());
        for (const answer of got) {
          expect(answer.jsonrpc).toBe("2.0");
          const k = ids.indexOf(answer.id);
          const sent = {
            jsonrpc: "2.0",
            id: ids[k],
            method: requests[k].method,
            ...(requests[k].params ? { params: requests[k].params } : {}),
          };
          const label = JSON.stringify(sent).slice(0, 300);
          if (!JSONRPCMessageSchema.safeParse(sent).success) expect(answer.error?.code, label).toBe(-32600);
          else if (!HANDLED.includes(sent.method)) expect(answer.error?.code, label).toBe(-32601);
          else if ("error" in answer) expectProperError(answer);
          else expect(typeof answer.result, label).toBe("object");
        }
        await expectStillServing();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("answers tool calls with wrong, missing or huge arguments and unknown tools, then serves on", async () => {
    const call = fc.record({
      name: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...TOOLS) }, { weight: 1, arbitrary: jsonValue }),
      arguments: fc.option(argumentsValue, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 4 }), async (calls) => {
        const ids = calls.map(() => nextId++);
        for (const [k, params] of calls.entries()) server.request(ids[k], "tools/call", params);
        const got = await answers(calls.length);
        expect(got.map((a) => a.id).sort()).toEqual([...ids].sort());
        for (const answer of got) {
          if ("error" in answer) expectProperError(answer);
          else {
            // A result: content to show, and an error flag when the call could not be served.
            expect(Array.isArray(answer.result.content)).toBe(true);
            expect(answer.result.content.length).toBeGreaterThan(0);
          }
        }
        await expectStillServing();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("answers the classic faults exactly", async () => {
    const big = "X".repeat(1 << 20);
    const cases: [string, (answer: Json) => void][] = [
      ["not json", (a) => expect(a).toMatchObject({ id: null, error: { code: -32700 } })],
      ["{", (a) => expect(a).toMatchObject({ id: null, error: { code: -32700 } })],
      [big, (a) => expect(a).toMatchObject({ id: null, error: { code: -32700 } })],
      ["[1,2]", (a) => expect(a).toMatchObject({ id: null, error: { code: -32600 } })],
      ["null", (a) => expect(a).toMatchObject({ id: null, error: { code: -32600 } })],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no/such/method" }),
        (a) => expect(a).toMatchObject({ id: 1, error: { code: -32601 } }),
      ],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_requirement", arguments: { id: 42 } } }),
        (a) => expect(a).toMatchObject({ id: 2, result: { isError: true } }),
      ],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_requirements", arguments: { tag: null } } }),
        (a) => expect(a).toMatchObject({ id: 3, result: { isError: true } }),
      ],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_requirement", arguments: { id: big } } }),
        // The error quotes the argument bounded (src/quote.ts), not whole.
        (a) =>
          expect(a).toMatchObject({
            id: 4,
            result: { isError: true, structuredContent: { error: `Requirement '${"X".repeat(100)}…' (1,048,576 characters) not found` } },
          }),
      ],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "no_such_tool", arguments: {} } }),
        (a) => {
          const failed = a.error !== undefined || a.result?.isError === true;
          expect(failed, JSON.stringify(a)).toBe(true);
        },
      ],
      [JSON.stringify({ jsonrpc: "2.0", id: big, method: "ping" }), (a) => expect(a).toMatchObject({ id: big, result: {} })],
      [JSON.stringify({ jsonrpc: "2.0", id: 6, method: big }), (a) => expect(a).toMatchObject({ id: 6, error: { code: -32601 } })],
    ];
    for (const [line, check] of cases) {
      server.send(line);
      const [answer] = await answers(1);
      check(answer);
      await expectStillServing();
    }
  });

  it("answers a client that reads slowly (stdout full) without a runtime warning", async () => {
    // Large answers pile up in the pipe while the client does not read.
    server.child.stdout.pause();
    const big = "Z".repeat(256 * 1024);
    const ids = Array.from({ length: 40 }, () => nextId++);
    for (const id of ids) server.request(id, "tools/call", { name: "get_test", arguments: { id: `${big}${id}` } });
    await new Promise((r) => setTimeout(r, 500));
    server.child.stdout.resume();
    const got = await answers(ids.length);
    expect(got.map((a) => a.id).sort()).toEqual(ids);
    for (const answer of got) expect(answer.result.isError).toBe(true);
    await expectStillServing();
    expect(server.stderr).not.toMatch(/Warning/);
  });

  it("answers a line too long to buffer (over 64 MB) with -32700 and serves on", async () => {
    // The transport gives up on a line past its limit instead of buffering it forever.
    const chunk = "Y".repeat(8 << 20);
    for (let i = 0; i < 9; i++) server.child.stdin.write(chunk);
    server.child.stdin.write("\n");
    const [answer] = await answers(1);
    expect(answer).toMatchObject({ id: null, error: { code: -32700 } });
    await expectStillServing();
  });
});
