// Side by side with speky's own MCP server: the same JSON-RPC lines to both, on speky's own
// specification trees, every answer compared. A difference is either explained by a row of
// docs/speky-differences.md (each rule below names its row) or reported as unexplained, and
// the run exits 1.
//   npm run build && node dist-bench/speky-replay/main.js SPEKY_CHECKOUT [--python PY] [--show N]
// SPEKY_CHECKOUT is a clone of speky (never committed here). Its server runs with
// scripts/speky-replay/py on PYTHONPATH: a stand-in for py-tree-sitter (not installable here:
// no PyPI) that parses with speky-ts's own grammar files, and the package metadata speky reads
// its version from. scripts/speky-replay/run-pytest.sh runs speky's pytest cases against our server.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Answer, callsFor, protocolCalls, type ReplayCall } from "./calls.js";
import { compareAnswers, type Difference, RULES, treeContext } from "./rules.js";
import { LineServer, REPO } from "./server.js";

/** speky's trees, as its repository, its .mcp.json and its pytest cases load them. */
const TREES: readonly { paths: readonly string[]; coverageCategories: boolean }[] = [
  { paths: ["specs/speky.yaml", "specs/mcp/mcp.toml"], coverageCategories: true },
  { paths: ["specs/speky.yaml"], coverageCategories: true },
  { paths: ["specs/mcp/mcp.toml"], coverageCategories: true },
  { paths: ["tests/samples/more_samples.yaml"], coverageCategories: true },
  {
    paths: ["tests/samples/simple_requirements.yaml", "tests/samples/simple_tests.yaml", "tests/samples/simple_comments.yaml"],
    coverageCategories: false,
  },
];

interface Tally {
  calls: number;
  identical: number;
  /** Identical but for the text block that repeats structuredContent. */
  sameStructured: number;
  explained: Map<string, number>;
  unexplained: { tree: string; call: ReplayCall; differences: Difference[] }[];
}

function spekyServer(checkout: string, python: string, paths: readonly string[]): LineServer {
  const pythonPath = [path.join(checkout, "python"), path.join(REPO, "scripts/speky-replay/py")].join(path.delimiter);
  return new LineServer(python, ["-m", "speky_mcp", ...paths], checkout, { PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: "1" });
}

function oursServer(checkout: string, paths: readonly string[]): LineServer {
  return new LineServer(process.execPath, [path.join(REPO, "dist/commands/mcp.js"), "--quiet", "--no-watch", ...paths], checkout, {});
}

async function replayTree(checkout: string, python: string, tree: (typeof TREES)[number], tally: Tally): Promise<void> {
  const speky = spekyServer(checkout, python, tree.paths);
  const ours = oursServer(checkout, tree.paths);
  const exchanges: { call: ReplayCall; speky: Answer; ours: Answer }[] = [];
  try {
    const send = async (call: ReplayCall) => {
      const [a, b] = await Promise.all([speky.exchange(call), ours.exchange(call)]);
      return { call, speky: a, ours: b };
    };
    for (const call of protocolCalls()) exchanges.push(await send(call));
    // The rest is generated from what speky's server answers about its own tree.
    for (const call of await callsFor(async (c) => (await send(c)).speky)) exchanges.push(await send(call));
  } finally {
    await Promise.all([speky.close(), ours.close()]);
  }
  const context = treeContext(exchanges, tree.coverageCategories);
  for (const { call, speky: a, ours: b } of exchanges) {
    tally.calls++;
    const differences = compareAnswers(call, a, b, context);
    if (differences.length === 0) {
      tally.identical++;
      continue;
    }
    const unexplained = differences.filter((d) => d.rule === null);
    if (unexplained.length > 0) tally.unexplained.push({ tree: tree.paths.join(" "), call, differences: unexplained });
    else {
      const rules = new Set(differences.map((d) => d.rule!));
      if (rules.size === 1 && rules.has(TEXT_BLOCK)) tally.sameStructured++;
      for (const rule of rules) tally.explained.set(rule, (tally.explained.get(rule) ?? 0) + 1);
    }
  }
}

/** The rule for the one difference of nearly every tool answer. */
const TEXT_BLOCK = "text content block";

export async function replay(checkout: string, python: string, show: number): Promise<{ lines: string[]; ok: boolean }> {
  const tally: Tally = { calls: 0, identical: 0, sameStructured: 0, explained: new Map(), unexplained: [] };
  for (const tree of TREES) await replayTree(checkout, python, tree, tally);
  const lines = [
    `speky replay: ${tally.calls} calls on ${TREES.length} trees; ${tally.identical} identical, ` +
      `${tally.sameStructured} identical but for our text block, ` +
      `${tally.calls - tally.identical - tally.sameStructured - tally.unexplained.length} differ otherwise, each as ` +
      `docs/speky-differences.md says, ${tally.unexplained.length} unexplained`,
    "  calls  rule: row of docs/speky-differences.md",
  ];
  for (const [rule, count] of [...tally.explained].sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${String(count).padStart(5)}  ${rule}: ${RULES.find((r) => r.name === rule)?.row ?? "?"}`);
  }
  const shapes = new Map<string, number>();
  for (const u of tally.unexplained) {
    for (const d of u.differences) {
      const shape = `${u.call.tool ?? "protocol"} ${d.path.replace(/\[\d+\]/g, "[]")}`;
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
  }
  for (const [shape, count] of [...shapes].sort((a, b) => b[1] - a[1])) lines.push(`  unexplained ${String(count).padStart(5)}  ${shape}`);
  for (const u of tally.unexplained.slice(0, show)) {
    lines.push(`UNEXPLAINED [${u.tree}] ${JSON.stringify(u.call.message)}`);
    for (const d of u.differences.slice(0, 4)) lines.push(`    at ${d.path}: speky ${short(d.speky)} / ours ${short(d.ours)}`);
  }
  return { lines, ok: tally.unexplained.length === 0 };
}

const short = (v: unknown) => {
  const text = v === undefined ? "(absent)" : JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args.splice(i, 2)[1];
  };
  const python = option("--python") ?? "/usr/bin/python3";
  const show = Number(option("--show") ?? 20);
  if (args.length !== 1) {
    console.error("usage: node dist-bench/speky-replay/main.js SPEKY_CHECKOUT [--python PY] [--show N]");
    process.exit(2);
  }
  const { lines, ok } = await replay(path.resolve(args[0]), python, show);
  for (const line of lines) console.log(line);
  process.exitCode = ok ? 0 : 1;
}
