// How two answers of the replay are compared: a structural diff (an array holding the same
// items in another order is one difference, of order), then each difference is matched against
// the rules below. Every rule names the row of docs/speky-differences.md that makes it
// deliberate; a difference no rule matches is unexplained.
import type { Answer, ReplayCall } from "./calls.js";

export interface Difference {
  path: string;
  speky: unknown;
  ours: unknown;
  /** "order" when an array holds the same items in another order. */
  kind: "value" | "order";
  /** The rule explaining it, or null. */
  rule: string | null;
}

/** What the rules know of the whole tree, read from both servers' answers before any comparison. */
export interface TreeContext {
  /** Whether some manifest of the tree declares coverage_categories. */
  coverageCategories: boolean;
  /** Tests that one server counts automated and the other not (by their code references' is_test). */
  automationDiffers: Set<string>;
  /** Requirements validated by one of those tests: their coverage figures follow. */
  coverageFollows: Set<string>;
}

interface Rule {
  name: string;
  /** The row of docs/speky-differences.md (its first cell). */
  row: string;
  matches(d: Difference, call: ReplayCall, speky: Answer, ours: Answer, tree: TreeContext): boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (isObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

function diff(a: unknown, b: unknown, at: string, out: Difference[]): void {
  if (canonical(a) === canonical(b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === b.length && canonical([...a].map(canonical).sort()) === canonical([...b].map(canonical).sort())) {
      out.push({ path: at, speky: a, ours: b, kind: "order", rule: null });
      return;
    }
    if (a.length === b.length) {
      for (let i = 0; i < a.length; i++) diff(a[i], b[i], `${at}[${i}]`, out);
      return;
    }
  } else if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[key], b[key], `${at}.${key}`, out);
    return;
  }
  out.push({ path: at, speky: a, ours: b, kind: "value", rule: null });
}

/** The part of an answer both servers are held to: no jsonrpc envelope, no id. */
function comparable(answer: Answer): unknown {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = answer;
  return rest;
}

const method = (call: ReplayCall) => (typeof call.message === "string" ? null : (call.message as { method?: string }).method);
const lastKey = (d: Difference) => /[.]([a-z_]+)$/.exec(d.path)?.[1];
/** The value at `path` ("" the whole answer) in an answer. */
function at(answer: Answer, path: string): unknown {
  let value: unknown = comparable(answer);
  for (const part of path.match(/[.][a-zA-Z_]+|\[\d+\]/g) ?? []) {
    if (value === null || typeof value !== "object") return undefined;
    value = part.startsWith("[") ? (value as unknown[])[Number(part.slice(1, -1))] : (value as Record<string, unknown>)[part.slice(1)];
  }
  return value;
}
const sibling = (d: Difference, key: string) => d.path.replace(/[.][a-z_]+$/, `.${key}`);

/** Python's repr of a string, as speky's f"{x!r}" writes it (the printable cases the replay sends). */
function pythonRepr(value: string): string {
  const escaped = value.replaceAll("\\", "\\\\");
  if (value.includes("'") && !value.includes('"')) return `"${escaped}"`;
  return `'${escaped.replaceAll("'", "\\'")}'`;
}

/** The arguments of a tools/call. */
const argsOf = (call: ReplayCall) =>
  ((call.message as { params?: { arguments?: Record<string, unknown> } }).params?.arguments ?? {}) as Record<string, unknown>;

export const RULES: Rule[] = [
  {
    name: "text content block",
    row: "Answer shape",
    matches: (d, _c, _s, ours) =>
      d.path === ".result.content" &&
      d.speky === undefined &&
      JSON.stringify(d.ours) === JSON.stringify([{ type: "text", text: JSON.stringify(ours.result?.structuredContent) }]),
  },
  {
    name: "symbol null",
    row: "`symbol` of a free reference in `code_references`",
    matches: (d) => lastKey(d) === "symbol" && d.speky === undefined && d.ours === null,
  },
  {
    name: "qualified symbol",
    row: "Qualified symbols",
    matches: (d) =>
      lastKey(d) === "symbol" &&
      typeof d.speky === "string" &&
      typeof d.ours === "string" &&
      [".", "::", "#", "\\"].some((sep) => (d.ours as string).endsWith(`${sep}${d.speky}`)),
  },
  {
    name: "module docstring line",
    row: "Line of a tag in a module docstring",
    matches: (d, _c, speky, ours) =>
      lastKey(d) === "line" &&
      /[.]code_references\[\d+\]/.test(d.path) &&
      at(speky, sibling(d, "symbol")) === undefined &&
      at(ours, sibling(d, "symbol")) === null &&
      String(at(ours, sibling(d, "file"))).endsWith(".py") &&
      (d.speky as number) < (d.ours as number),
  },
  {
    name: "decorated definition line",
    row: "Line of a symbol reference above a decorated definition",
    matches: (d, _c, speky) =>
      lastKey(d) === "line" &&
      typeof at(speky, sibling(d, "symbol")) === "string" &&
      String(at(speky, sibling(d, "file"))).endsWith(".py") &&
      (d.speky as number) < (d.ours as number),
  },
  {
    name: "url of the line",
    row: "Line of a tag in a module docstring",
    matches: (d, _c, speky, ours) =>
      lastKey(d) === "url" &&
      typeof d.speky === "string" &&
      typeof d.ours === "string" &&
      d.speky.replace(/#L\d+$/, "") === d.ours.replace(/#L\d+$/, "") &&
      d.speky.endsWith(`#L${at(speky, sibling(d, "line"))}`) &&
      d.ours.endsWith(`#L${at(ours, sibling(d, "line"))}`),
  },
  {
    name: "is_test by the framework's rules",
    row: "Go",
    matches: (d, _c, speky) => lastKey(d) === "is_test" && String(at(speky, sibling(d, "file"))).endsWith(".go"),
  },
  {
    name: "automation follows is_test",
    row: "Go",
    matches: (d, call, speky, _o, tree) =>
      call.tool === "least_tested_requirements" &&
      lastKey(d) === "automated_test_plans" &&
      tree.coverageFollows.has(String(at(speky, sibling(d, "id")))),
  },
  {
    name: "coverage follows is_test",
    row: "Go",
    matches: (d, call, _s, _o, tree) => {
      if (call.tool !== "test_plan_coverage" || !Array.isArray(d.speky) || !Array.isArray(d.ours)) return false;
      const ids = (list: unknown[]) => new Set(list.map((s) => (s as { id: string }).id));
      const [a, b] = [ids(d.speky), ids(d.ours)];
      const moved = [...a].filter((id) => !b.has(id)).concat([...b].filter((id) => !a.has(id)));
      return moved.length > 0 && moved.every((id) => tree.coverageFollows.has(id));
    },
  },
  {
    name: "coverage without coverage_categories",
    row: "`test_plan_coverage` where no manifest declares `coverage_categories`",
    matches: (d, call, _s, _o, tree) =>
      call.tool === "test_plan_coverage" && !tree.coverageCategories && Array.isArray(d.speky) && d.speky.length === 0,
  },
  {
    name: "get_test comments",
    row: "`get_test` comments",
    matches: (d, call) => call.tool === "get_test" && d.path === ".result.structuredContent.comments" && d.speky === undefined,
  },
  {
    name: "coverage order",
    row: "`test_plan_coverage` order",
    matches: (d, call) => call.tool === "test_plan_coverage" && d.kind === "order",
  },
  {
    name: "did_you_mean",
    row: "`did_you_mean`",
    matches: (d) => d.path === ".result.structuredContent.did_you_mean" && d.speky === undefined,
  },
  {
    name: "repr quoting",
    row: "Quoting in error texts",
    matches: (d, call) => {
      if (d.path !== ".result.structuredContent.error" || typeof d.speky !== "string" || typeof d.ours !== "string") return false;
      return Object.values(argsOf(call)).some(
        (v) => typeof v === "string" && d.ours === (d.speky as string).replace(pythonRepr(v), `'${v}'`),
      );
    },
  },
  {
    name: "initialize answer",
    row: "`initialize` answer",
    matches: (d, call) => method(call) === "initialize" && /^[.]result[.](capabilities|serverInfo[.]version|instructions)/.test(d.path),
  },
  {
    name: "tools/list",
    row: "`tools/list`",
    matches: (d, call) => method(call) === "tools/list" && d.path === ".result.tools" && spekyToolsKept(d.speky, d.ours),
  },
  {
    name: "ping",
    row: "`ping`",
    matches: (d, call) =>
      method(call) === "ping" && ((d.path === ".error" && d.ours === undefined) || (d.path === ".result" && d.speky === undefined)),
  },
  {
    name: "unknown tool",
    row: "Unknown tool",
    matches: (d, call) =>
      method(call) === "tools/call" &&
      ((d.path === ".error.code" && d.speky === -32601 && d.ours === -32602) ||
        (d.path === ".error.message" && String(d.ours).startsWith("Unknown tool: "))),
  },
  {
    name: "error wording",
    row: "JSON-RPC error messages",
    matches: (d, call, speky, ours) =>
      d.path === ".error.message" &&
      speky.error?.code === ours.error?.code &&
      (typeof call.message === "string" ? String(d.ours).startsWith(String(d.speky)) : speky.error?.code === -32601),
  },
  {
    name: "argument types",
    row: "Wrong argument types",
    matches: (d, call, _s, ours) =>
      method(call) === "tools/call" &&
      (d.path === ".result.structuredContent" || d.path === ".result.content") &&
      ours.result?.isError === true &&
      JSON.stringify(ours.result?.content ?? "").includes("Input validation error"),
  },
];

/** speky's nine tools, in its order, among ours, each taking at least speky's arguments. */
function spekyToolsKept(speky: unknown, ours: unknown): boolean {
  if (!Array.isArray(speky) || !Array.isArray(ours)) return false;
  const byName = new Map(ours.map((t: { name: string }) => [t.name, t]));
  return speky.every((t: { name: string; inputSchema?: { properties?: object } }) => {
    const mine = byName.get(t.name) as { inputSchema?: { properties?: object } } | undefined;
    return mine !== undefined && Object.keys(t.inputSchema?.properties ?? {}).every((p) => p in (mine.inputSchema?.properties ?? {}));
  });
}

export function compareAnswers(call: ReplayCall, speky: Answer, ours: Answer, tree: TreeContext): Difference[] {
  const differences: Difference[] = [];
  diff(comparable(speky), comparable(ours), "", differences);
  for (const d of differences) d.rule = RULES.find((r) => r.matches(d, call, speky, ours, tree))?.name ?? null;
  return differences;
}

type Exchange = { call: ReplayCall; speky: Answer; ours: Answer };

const automated = (answer: Answer) =>
  ((answer.result?.structuredContent as { code_references?: { is_test?: boolean }[] } | undefined)?.code_references ?? []).some(
    (r) => r.is_test === true,
  );

/** The tree's context, from the get_test and get_requirement answers of both servers. */
export function treeContext(exchanges: readonly Exchange[], coverageCategories: boolean): TreeContext {
  const automationDiffers = new Set<string>();
  for (const e of exchanges) {
    if (e.call.tool !== "get_test" || e.speky.result?.isError || e.ours.result?.isError) continue;
    if (automated(e.speky) !== automated(e.ours)) automationDiffers.add(String(argsOf(e.call).id));
  }
  const coverageFollows = new Set<string>();
  for (const e of exchanges) {
    if (e.call.tool !== "get_requirement") continue;
    const testers = (e.speky.result?.structuredContent as { tested_by?: { id: string }[] } | undefined)?.tested_by ?? [];
    if (testers.some((t) => automationDiffers.has(t.id))) coverageFollows.add(String(argsOf(e.call).id));
  }
  return { coverageCategories, automationDiffers, coverageFollows };
}
