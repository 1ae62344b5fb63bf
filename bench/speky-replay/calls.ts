// The calls of the replay against speky, in order. The protocol's (before and after initialize, as
// speky's own test plan sends them), then every tool with every argument value speky's tree
// holds (each ID, tag and category, their combinations), the unknown, empty and quoted
// values, and the counts. The same lines, with the same ids, go to both servers.

/** A JSON-RPC answer as read from a server's stdout, or what happened instead. */
export interface Answer {
  jsonrpc?: string;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  none?: true;
  exited?: number | null;
  stderr?: string;
  timeout?: number;
  unparsable?: string;
}

export interface ReplayCall {
  /** An object sent as JSON, or a raw line. */
  message: object | string;
  /** False for a notification: nothing is waited for. */
  answered: boolean;
  /** The tool called, for tools/call. */
  tool?: string;
}

let nextId = 1;

export function request(method: string, params?: object): ReplayCall {
  return { message: { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) }, answered: true };
}

export function toolCall(tool: string, args: Record<string, unknown> = {}): ReplayCall {
  return { ...request("tools/call", { name: tool, arguments: args }), tool };
}

/** The lifecycle as speky's test plan drives it: a call before initialize, TMCP003's initialize, then the protocol's faults. */
export function protocolCalls(): ReplayCall[] {
  return [
    toolCall("list_all_ids"),
    request("ping"),
    request("initialize", { protocolVersion: "2025-11-25", capabilities: {} }),
    { message: { jsonrpc: "2.0", method: "notifications/initialized" }, answered: false },
    request("tools/list"),
    request("ping"),
    request("no/such/method"),
    toolCall("no_such_tool"),
    { message: "this is not json", answered: true },
  ];
}

const structured = (answer: Answer) => (answer.result?.structuredContent ?? {}) as Record<string, unknown>;
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const categories = (value: unknown) =>
  [...new Set((Array.isArray(value) ? value : []).map((s) => (s as { category?: unknown }).category))].filter(
    (c): c is string => typeof c === "string",
  );

/** Every call for one tree, built from speky's own answers about it (`ask` sends a call to speky). */
export async function callsFor(ask: (call: ReplayCall) => Promise<Answer>): Promise<ReplayCall[]> {
  const ids = structured(await ask(toolCall("list_all_ids")));
  const requirementIds = strings(ids.requirements);
  const testIds = strings(ids.tests);
  const tags = strings(structured(await ask(toolCall("list_all_tags"))).tags);
  const requirementCategories = categories(structured(await ask(toolCall("search_requirements"))).requirements);
  const testCategories = categories(structured(await ask(toolCall("search_tests"))).tests);
  const calls: ReplayCall[] = [
    toolCall("list_all_ids"),
    toolCall("list_all_tags"),
    toolCall("search_requirements"),
    toolCall("search_tests"),
    toolCall("test_plan_coverage"),
    toolCall("least_tested_requirements"),
  ];
  for (const id of [...requirementIds, ...testIds]) {
    calls.push(toolCall("get_requirement", { id }), toolCall("get_test", { id }), toolCall("list_references_to", { id }));
    calls.push(toolCall("search_tests", { tester_of: id }));
  }
  for (const tag of tags) {
    calls.push(toolCall("search_requirements", { tag }), toolCall("least_tested_requirements", { tag }));
    for (const category of requirementCategories) {
      calls.push(toolCall("search_requirements", { tag, category }), toolCall("least_tested_requirements", { tag, category, count: 2 }));
    }
  }
  for (const category of requirementCategories) {
    calls.push(toolCall("search_requirements", { category }), toolCall("test_plan_coverage", { category }));
    calls.push(toolCall("least_tested_requirements", { category }));
  }
  for (const category of testCategories) {
    calls.push(toolCall("search_tests", { category }));
    for (const id of requirementIds.slice(0, 5)) calls.push(toolCall("search_tests", { category, tester_of: id }));
  }
  for (const count of [0, 1, 3, -1, 1000]) calls.push(toolCall("least_tested_requirements", { count }));
  // Values no tree defines: unknown, another case, empty, quoted as Python's repr would quote them.
  const odd = ["NOPE", "", "it's", 'say "hi"', requirementIds[0]?.toLowerCase() ?? "x", tags[0]?.toUpperCase() ?? "X"];
  for (const value of odd) {
    calls.push(toolCall("get_requirement", { id: value }), toolCall("get_test", { id: value }));
    calls.push(toolCall("list_references_to", { id: value }), toolCall("search_tests", { tester_of: value }));
    calls.push(toolCall("search_requirements", { tag: value }), toolCall("search_requirements", { category: value }));
    calls.push(toolCall("search_tests", { category: value }), toolCall("test_plan_coverage", { category: value }));
    calls.push(toolCall("least_tested_requirements", { tag: value }), toolCall("least_tested_requirements", { category: value }));
  }
  // A wrong type speky answers without crashing (a missing id or a string count end its process).
  calls.push(toolCall("get_requirement", { id: 42 }));
  return calls;
}
