// The `initialize` answer given before the SDK is loaded (src/mcp/sdk/initialize.ts) is the
// SDK's own, byte for byte, and a session that starts with it goes on as one the SDK began.
import { PassThrough } from "node:stream";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SpecSet } from "../../src/loader/types.js";
import { earlyInitializeAnswer } from "../../src/mcp/sdk/initialize.js";
import * as identity from "../../src/mcp/sdk/pin.js";
import { LineStdioTransport } from "../../src/mcp/sdk/transport.js";
import { connectSession, createServer } from "../../src/mcp/server.js";
import { buildModel } from "../../src/model/model.js";
import { RawServer } from "../support/mcp.js";

const EMPTY: SpecSet = { requirements: [], tests: [], comments: [], manifests: [], files: [], warnings: [] };

/** A server of the SDK on in-memory stdio; `early` lets the transport answer first, as main.ts does. */
async function session(early: boolean) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => (written += chunk.toString()));
  const transport = new LineStdioTransport(input, output);
  const model = buildModel(EMPTY, null);
  const server = createServer(() => model);
  if (early) {
    transport.listenEarly();
    transport.answerEarly(earlyInitializeAnswer);
  }
  const lines = async (n: number) => {
    for (let i = 0; i < 200 && written.split("\n").length <= n; i++) await new Promise((r) => setTimeout(r, 5));
    return written.split("\n").slice(0, n);
  };
  // As main.ts does: the session replays an early request into the SDK.
  return { input, transport, server, lines, connect: () => connectSession(server, transport, transport.endEarly()) };
}

/** What the SDK writes for this first line, and what the early path writes (null: no early answer). */
async function bothAnswers(message: unknown): Promise<{ sdk: string; early: string | null }> {
  const s = await session(false);
  await s.connect();
  s.input.write(`${JSON.stringify(message)}\n`);
  const [sdk] = await s.lines(1);
  await s.server.close();
  const answer = earlyInitializeAnswer(message);
  return { sdk, early: answer === null ? null : JSON.stringify(answer) };
}

const initialize = (params: Record<string, unknown>, id: string | number = 1) => ({ jsonrpc: "2.0", id, method: "initialize", params });
const PLAIN = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "client", version: "1.0" } };

describe("early initialize", () => {
  // speky:speky-ts#TMCP-EARLY-INITIALIZE
  it("states the SDK's protocol versions and the capabilities the SDK announces", () => {
    expect(identity.SUPPORTED_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(identity.LATEST_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
    const server = createServer(() => buildModel(EMPTY, null));
    expect(JSON.stringify((server.server as unknown as { getCapabilities(): unknown }).getCapabilities())).toBe(
      JSON.stringify(identity.ANNOUNCED_CAPABILITIES),
    );
  });

  // speky:speky-ts#TMCP-EARLY-INITIALIZE
  it("answers plain requests with the SDK's bytes, and leaves every other one to the SDK", async () => {
    const plain = [
      initialize(PLAIN),
      initialize({ ...PLAIN, protocolVersion: "2024-11-05" }, "req-1"),
      initialize({ ...PLAIN, protocolVersion: "1999-01-01" }, 0),
      initialize({ ...PLAIN, capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } }),
      initialize({ ...PLAIN, capabilities: { elicitation: { form: {}, url: {} }, sampling: { context: {}, tools: {} } } }),
      initialize({ ...PLAIN, clientInfo: { name: "c", version: "2", title: "C", websiteUrl: "https://example.org", description: "d" } }),
      // Lenient, as speky is. What is missing is filled in (speky's TMCP003 sends no clientInfo).
      initialize({ protocolVersion: "2025-11-25", capabilities: {} }),
      initialize({ ...PLAIN, clientInfo: {} }),
      initialize({ ...PLAIN, clientInfo: { name: "c" } }),
      { jsonrpc: "2.0", id: 1, method: "initialize" },
    ];
    for (const message of plain) {
      const { sdk, early } = await bothAnswers(message);
      expect(early).toBe(sdk);
    }
    const others = [
      initialize({ ...PLAIN, _meta: { progressToken: 1 } }),
      initialize({ ...PLAIN, capabilities: { roots: 5 } }),
      initialize({ ...PLAIN, capabilities: { tasks: {} } }),
      initialize({ ...PLAIN, clientInfo: { name: "c", version: "1", icons: [] } }),
      initialize({ ...PLAIN, protocolVersion: 2025 }),
      initialize(PLAIN, 1.5),
      { ...initialize(PLAIN), extra: true },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    ];
    for (const message of others) expect(earlyInitializeAnswer(message), JSON.stringify(message)).toBeNull();
  });

  // speky:speky-ts#TMCP-EARLY-INITIALIZE
  it("answers as the SDK does on random requests, whenever it answers", async () => {
    const text = fc.string({ maxLength: 12 });
    // Mostly valid values, sometimes not: both sides of the early path are reached.
    const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
      fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: other, weight: 1 });
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const odd = fc.constantFrom({ x: 1 }, [], null, 3, "s");
    const drop = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    const request = fc.record({
      id: mostly(fc.oneof(fc.integer(), text), fc.double()),
      protocolVersion: mostly(fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), text), fc.integer()),
      capabilities: mostly(
        fc
          .record({
            roots: maybe(mostly(fc.record({ listChanged: maybe(mostly(fc.boolean(), text)) }).map(drop), odd)),
            sampling: maybe(mostly(fc.constant({}), odd)),
            elicitation: maybe(mostly(fc.constantFrom({}, { form: {} }, { url: {} }), odd)),
            other: mostly(fc.constant(undefined), odd),
          })
          .map(drop),
        odd,
      ),
      clientInfo: fc
        .record({
          name: mostly(text, fc.constant(undefined)),
          version: mostly(text, fc.integer()),
          title: maybe(mostly(text, fc.integer())),
        })
        .map(drop),
    });
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ id, ...params }) => {
        const message = initialize(params, id as string | number);
        const { sdk, early } = await bothAnswers(message);
        if (early !== null) {
          answered++;
          expect(early).toBe(sdk);
        }
      }),
      { numRuns: 200, seed: 14 },
    );
    // The generator reaches both sides: requests answered early and requests left to the SDK.
    expect(answered).toBeGreaterThan(10);
    expect(answered).toBeLessThan(140);
  });

  // speky:speky-ts#TMCP-EARLY-INITIALIZE
  it("hands the session to the SDK with the client's capabilities, the lines read meanwhile in order", async () => {
    const s = await session(true);
    const message = initialize({ ...PLAIN, capabilities: { roots: { listChanged: true }, elicitation: {} } }, 9);
    s.input.write(`${JSON.stringify(message)}\nnot json\n`);
    s.input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" })}\n`);
    const [first] = await s.lines(1);
    expect(first).toBe(JSON.stringify(earlyInitializeAnswer(message)));
    expect(s.transport.earlyRequest).toEqual(message);
    await s.connect();
    const lines = await s.lines(3);
    expect(JSON.parse(lines[1])).toMatchObject({ id: null, error: { code: -32700 } });
    expect(JSON.parse(lines[2])).toEqual({ jsonrpc: "2.0", id: 10, result: {} });
    expect(s.server.server.getClientCapabilities()).toEqual({ roots: { listChanged: true }, elicitation: { form: {} } });
    expect(s.server.server.getClientVersion()).toEqual(PLAIN.clientInfo);
    await s.server.close();
  });

  // speky:speky-ts#TMCP-EARLY-INITIALIZE
  it("answers initialize once, then the requests sent with it, from the built server", async () => {
    const server = new RawServer();
    server.send(`${JSON.stringify(initialize(PLAIN, 1))}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}`);
    const [init, list] = (await server.waitForLines(2)) as Record<string, any>[];
    expect(init).toEqual(earlyInitializeAnswer(initialize(PLAIN, 1)));
    expect(list.id).toBe(2);
    expect(list.result.tools.length).toBeGreaterThan(0);
    expect(await server.endInput()).toBe(0);
    expect(server.lines()).toHaveLength(2);
  });
});
