// Where speky-mcp departs from the stock MCP SDK, all in this folder, and the one SDK version
// these departures were written and measured against. test/mcp/mcp-sdk-pin.test.ts fails as soon
// as another version is installed: each departure below must then be re-checked against the
// new SDK (and dropped where the SDK now does the same), and this pin moved.
//
// 1. transport.ts, our stdio transport (the SDK's Transport interface, public): a line that is
//    not JSON is answered -32700 and one that is not JSON-RPC -32600 (the SDK's
//    StdioServerTransport drops both in silence, leaving the client to time out), stdin's end
//    closes the session, a line is bounded, and stdin is read before the SDK is even loaded.
// 2. initialize.ts, the early answer: a plain first `initialize` is answered before the SDK
//    is loaded, with the bytes the SDK would send (the constants below are the SDK's). Still
//    worth it (`node dist-bench/servers/mcp-sdk-departures.js initialize`, 14 paired spawns at load 10
//    on 2 cores): 0.49x the SDK's spawn-to-answer on the MCP fixture (14/14 pairs, CPU 0.39x),
//    0.88x on 10,000 requirements + 20,000 tests (11/14, CPU 0.84x).
// 3. session.ts, the lifecycle the SDK's Server leaves to us: a lenient `initialize` (speky's
//    test plan sends no clientInfo), nothing but `ping` before it (-32002, as speky), an
//    unknown tool as a JSON-RPC error (McpServer makes it an isError result), and no
//    validator's dump in an error message (the SDK sends a ZodError's JSON as the message).
// 4. tool-list.ts, our `tools/list`: each outputSchema reads "the result, or {error}", because
//    the SDK's Client checks structuredContent against it even when isError is set (SDK issue
//    #1943), so that a domain error would reach an agent as a schema failure. McpServer gets
//    no outputSchema (tool.ts): it would check every result, memoized ones included, and that
//    costs as much as a repeated call on the large answers (`node
//    dist-bench/servers/mcp-sdk-departures.js outputs`: 9-19 ms of zod against 7-28 ms per call for
//    the 10,000-item lists, at load 10).
// 5. session.ts, `completion/complete` for a prompt or a resource template not served: an
//    empty list, where McpServer answers -32602; the official conformance suite's
//    `completion-complete` asks any server to complete a prompt of its own (docs/mcp-http.md).
// session.ts serves both transports: our stdio one and the SDK's Streamable HTTP one (src/mcp/http).

// speky:speky-ts#MCP-SDK-PIN
/** The @modelcontextprotocol/sdk version every departure of this folder was checked against. */
export const PINNED_SDK_VERSION = "1.32.2";

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS and LATEST_PROTOCOL_VERSION, for the early answer. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/**
 * The capabilities the SDK announces once the tools, resources, completions and prompts are
 * registered (McpServer adds `listChanged` to tools, resources and prompts), in the SDK's key order.
 */
export const ANNOUNCED_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { listChanged: true },
  completions: {},
  prompts: { listChanged: true },
};
