// The fast YAML reader must produce exactly what the `yaml` package produces (values, types,
// positions) for every document it accepts. Documents are generated from the constructs spec
// files use, with the formatting variations and YAML 1.1 traps that could tell them apart.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics.js";
import { FileDiagnostics } from "../../src/loader/file-diagnostics.js";
import { parseSimpleYaml } from "../../src/loader/yaml/fast.js";
import { readYamlFully } from "../../src/loader/yaml/full.js";
import { plainScalar } from "../../src/loader/yaml/scalars.js";

type Tree =
  | { t: "map"; entries: [string, Tree][]; step: number }
  | { t: "seq"; items: Tree[]; step: number; indentless: boolean }
  | { t: "plain"; text: string; comment: boolean }
  | { t: "multi"; lines: string[]; extra: number }
  | { t: "quoted"; text: string; comment: boolean }
  | { t: "block"; header: string; lines: string[]; extra: number }
  | { t: "flow"; items: string[]; comment: boolean }
  | { t: "empty" };

const KEYS = ["id", "long", "short", "tags", "a b", "x.y", "key_1", "k-2", "path/to"];
/** Keys YAML 1.1 does not read as strings, or that the fast reader refuses. */
const ODD_KEYS = ["y", "on", "No", "1", "null", "'quoted'", "a:b", "<<"];
const PLAIN = [
  "text",
  "two words",
  "yes",
  "no",
  "on",
  "Off",
  "y",
  "n",
  "~",
  "null",
  "Null",
  "true",
  "FALSE",
  "123",
  "010",
  "0x1F",
  "0b101",
  "0o17",
  "1_000",
  "1.5",
  "1e3",
  "-5",
  "+7",
  ".inf",
  "-.5",
  "1:30",
  "2025-05-21",
  "2001-12-14t21:59:43.10-05:00",
  "-foo",
  "a:b",
  "a#b",
  "it's",
  'x"y',
  "a [b] {c}",
  "output:pdf",
  "SF001",
  "90%",
  "x,y",
  "C++",
  "a - b",
  "trailing  ",
];
const QUOTED = [
  "'single'",
  "'it''s'",
  "''",
  "'  spaced  '",
  "'# not comment'",
  '"double"',
  '"tab\\tnew\\nline"',
  '"quote \\" inside"',
  '"\\x41\\u00e9\\U0001F600"',
  '""',
  '"back\\\\slash"',
  '"yes"',
  "'123'",
  '"a: b"',
  '"\\e\\N\\_"',
  '"bad \\q"',
];
const BLOCK_LINES = ["line", "two words", "", "  indented", "# not a comment", "a: b", "- item", "  "];
const FLOW = ["a", "b:c", "'s'", '"d"', "1", "yes", "x y", "~", "-1", "a#b"];
const ODD_FLOW = ["", "a: b", "[x]", "-", "a #b", "{}"];
const rarely = (common: string[], odd: string[]) =>
  fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...common) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ t: fc.constant("plain" as const), text: fc.constantFrom(...PLAIN), comment: fc.boolean() }),
    fc.record({
      t: fc.constant("multi" as const),
      lines: fc.array(fc.constantFrom("word", "two words", "", "3", "yes"), { minLength: 1, maxLength: 4 }),
      extra: fc.nat(3),
    }),
    fc.record({ t: fc.constant("quoted" as const), text: fc.constantFrom(...QUOTED), comment: fc.boolean() }),
    fc.record({
      t: fc.constant("block" as const),
      header: fc.constantFrom("|", "|-", "|+", ">", ">-", ">+", "| # c", "|2", ">+ "),
      lines: fc.array(fc.constantFrom(...BLOCK_LINES), { minLength: 1, maxLength: 5 }),
      extra: fc.nat(2),
    }),
    fc.record({
      t: fc.constant("flow" as const),
      items: fc.array(rarely(FLOW, ODD_FLOW), { maxLength: 3 }),
      comment: fc.boolean(),
    }),
    fc.constant({ t: "empty" as const }),
    fc.record({
      t: fc.constant("map" as const),
      entries: fc.uniqueArray(fc.tuple(rarely(KEYS, ODD_KEYS), tie("tree")), {
        minLength: 1,
        maxLength: 4,
        selector: ([key]) => key,
      }),
      step: fc.constantFrom(1, 2, 4),
    }),
    fc.record({
      t: fc.constant("seq" as const),
      items: fc.array(tie("tree"), { minLength: 1, maxLength: 3 }),
      step: fc.constantFrom(2, 4),
      indentless: fc.boolean(),
    }),
  ),
})).tree;

const pad = (n: number) => " ".repeat(n);

/** Lines of a collection at indentation `indent`. */
function block(node: Tree, indent: number): string[] {
  if (node.t === "map") {
    return node.entries.flatMap(([key, value]) => entry(`${pad(indent)}${key}:`, value, indent, node.step, true));
  }
  if (node.t === "seq") {
    return node.items.flatMap((item) => {
      if (item.t === "map") {
        // Compact form: the first entry on the dash's line.
        const lines = block(item, indent + 2);
        return [`${pad(indent)}- ${lines[0].slice(indent + 2)}`, ...lines.slice(1)];
      }
      return entry(`${pad(indent)}-`, item, indent, node.step, false);
    });
  }
  throw new Error("not a collection");
}

/** A `key:` or `-` line followed by its value. */
function entry(head: string, value: Tree, indent: number, step: number, inMap: boolean): string[] {
  switch (value.t) {
    case "map":
      return [head, ...block(value, indent + step)];
    case "seq":
      return [head, ...block(value, inMap && value.indentless ? indent : indent + step)];
    case "empty":
      return [head];
    case "plain":
      return [`${head} ${value.text}${value.comment ? " # c" : ""}`];
    case "quoted":
      return [`${head} ${value.text}${value.comment ? "  # c" : ""}`];
    case "flow":
      return [`${head} [${value.items.join(", ")}]${value.comment ? " # c" : ""}`];
    case "multi":
      return [`${head} first`, ...value.lines.map((l) => (l === "" ? "" : pad(indent + 1 + value.extra) + l))];
    case "block":
      return [`${head} ${value.header}`, ...value.lines.map((l) => (l === "" ? "" : pad(indent + 1 + value.extra) + l))];
  }
}

const documents = fc
  .record({
    root: tree.filter((t) => t.t === "map" || t.t === "seq"),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
    start: fc.constantFrom("", "---\n", "# head\n\n"),
    comments: fc.array(fc.tuple(fc.nat(30), fc.constantFrom("# note", "  # indented note", "", "   ")), {
      maxLength: 3,
    }),
  })
  .map(({ root, crlf, finalNewline, start, comments }) => {
    const lines = block(root, 0);
    for (const [at, text] of comments) lines.splice(at % (lines.length + 1), 0, text);
    const eol = crlf ? "\r\n" : "\n";
    return start.replace(/\n/g, eol) + lines.join(eol) + (finalNewline ? eol : "");
  });

function full(text: string) {
  const sink: Diagnostic[] = [];
  const root = readYamlFully(text, new FileDiagnostics("x.yaml", sink));
  return { root, sink };
}

describe("fast YAML reader", () => {
  it("reads every document it accepts exactly as the yaml package does", () => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(documents, (text) => {
        total++;
        const fast = parseSimpleYaml(text);
        if (fast === undefined) return;
        accepted++;
        const reference = full(text);
        expect(reference.sink, text).toEqual([]);
        expect(fast, text).toEqual(reference.root);
      }),
      { numRuns: Number(process.env.FAST_RUNS ?? 3000) },
    );
    // The generator must exercise the fast reader, not only its refusals.
    expect(accepted / total).toBeGreaterThan(0.3);
  });

  it("reads a typical specification file", () => {
    const text = [
      "# yaml-language-server: $schema=../schema/requirements.schema.json",
      "kind: requirements",
      "category: functional",
      "requirements:",
      "- id: REQ-1",
      "  short: Write requirements",
      "  long: |",
      "    The user shall be able to write requirements.",
      "",
      "    A requirement is:",
      "      - an identifier",
      "  tags: [output:pdf, versions]",
      "  properties:",
      "    since: 1",
      "    author: Ada",
      "- id: REQ-2",
      "  long: >-",
      "    Folded",
      "    text",
      "  ref:",
      "    - REQ-1",
      "",
    ].join("\n");
    const fast = parseSimpleYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(full(text).root);
  });

  it("leaves anchors, tags, flow mappings and tabs to the full parser", () => {
    const texts = ["a: &x 1\nb: *x\n", "a: !!str 1\n", "a: {b: 1}\n", "a:\n\tb: 1\n", "a: 1\na: 2\n", "a: 'x\n  y'\n"];
    for (const text of texts) {
      expect(parseSimpleYaml(text), text).toBeUndefined();
    }
  });
});

describe("unquoted YAML scalars", () => {
  // What PyYAML's safe_load (speky's reader) makes of each, where YAML 1.2 or the `yaml`
  // package's 1.1 schema would differ.
  const cases: [string, string, unknown][] = [
    ["yes", "bool", true],
    ["Off", "bool", false],
    ["y", "str", "y"],
    ["n", "str", "n"],
    ["~", "null", null],
    ["", "null", null],
    ["Null", "null", null],
    ["nULL", "str", "nULL"],
    ["010", "int", 8],
    ["08", "str", "08"],
    ["0x1F", "int", 31],
    ["0b101", "int", 5],
    ["-1_000", "int", -1000],
    ["1:30", "int", 90],
    ["1.5", "float", 1.5],
    ["1.", "float", 1],
    [".5", "float", 0.5],
    ["1e5", "str", "1e5"],
    ["1.0e5", "str", "1.0e5"],
    ["1.0e+5", "float", 100000],
    ["e5", "str", "e5"],
    ["-.inf", "float", -Infinity],
    ["1:30.5", "float", 90.5],
    ["2025-05-21", "timestamp", new Date(Date.UTC(2025, 4, 21))],
    ["2025-5-21", "str", "2025-5-21"],
    ["2001-12-14 21:59:43.10 -5", "timestamp", new Date(Date.UTC(2001, 11, 15, 2, 59, 43, 100))],
    ["=", "str", "="],
    ["<<", "str", "<<"],
    ["output:pdf", "str", "output:pdf"],
  ];
  it.each(cases)("%j is %s", (text, tag, value) => {
    const node = plainScalar(text, 1, 1);
    expect(node.tag).toBe(tag);
    expect(node.value).toEqual(value);
  });
});
