// The results-matching rules, as data in grammars/languages.json (`results`, and each row's
// `results` list): how a runner names the test it ran, per framework. grammars/README.md
// ("Matching test results") says what each key means; this module only reads and compiles them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where a rule may take a path from: the testcase's `file`, its suite's `file`, its `classname`. */
export type PathField = "file" | "suiteFile" | "classname";
/** What a `qualified` rule does with the runner's parts before the symbol's scopes. */
export type RestMode = "module" | "package" | "none";

interface RuleRow {
  runner: string;
  mode: "qualified" | "titles";
  when?: Partial<Record<"name" | "classname" | "file" | "suiteFile", string>>;
  name?: string;
  classname?: string;
  split?: string;
  symbolSplit?: string;
  rest?: RestMode;
  join?: string;
  placeholders?: string;
  tightJoin?: string;
  file?: PathField[];
  messageSkip?: string;
  output?: boolean;
}

export interface ResultsRule {
  id: string;
  runner: string;
  mode: "qualified" | "titles";
  when: { field: "name" | "classname" | "file" | "suiteFile"; test: RegExp }[];
  /** qualified: the testcase name, with a `leaf` group (and optional `scopes`). */
  name: RegExp | null;
  /** qualified: the classname, with an optional `scopes` group. */
  classname: RegExp | null;
  split: RegExp;
  /** Splits a reference's symbol into its parts; null: the language's separator. */
  symbolSplit: RegExp | null;
  rest: RestMode;
  /** titles: the symbol's parts joined so, as the runner writes the whole title. */
  join: string;
  placeholders: RegExp | null;
  /** titles: a part the runner may join to the one before without `join` (RSpec's `#x`, `.x`, `::X`). */
  tightJoin: RegExp | null;
  file: PathField[];
  messageSkip: RegExp | null;
  output: boolean;
}

export interface RuleTable {
  /** Language id → its rules, in order: the first whose `when` holds decides for a testcase. */
  byLanguage: ReadonlyMap<string, readonly ResultsRule[]>;
  /** Language id → its separator, the default symbol split. */
  separators: ReadonlyMap<string, string>;
}

const FILE = fileURLToPath(new URL("../../grammars/languages.json", import.meta.url));

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(id: string, row: RuleRow): ResultsRule {
  const re = (source: string | undefined, flags = "u") => (source === undefined ? null : new RegExp(source, flags));
  if (row.mode !== "qualified" && row.mode !== "titles") throw new Error(`results rule ${id}: unknown mode ${String(row.mode)}`);
  const name = re(row.name);
  if (row.mode === "qualified" && !name?.source.includes("(?<leaf>")) throw new Error(`results rule ${id}: 'name' needs a leaf group`);
  return {
    id,
    runner: row.runner,
    mode: row.mode,
    when: Object.entries(row.when ?? {}).map(([field, source]) => ({
      field: field as ResultsRule["when"][number]["field"],
      test: new RegExp(source, "u"),
    })),
    name,
    classname: re(row.classname),
    split: new RegExp(row.split ?? "\\.", "u"),
    symbolSplit: re(row.symbolSplit),
    rest: row.rest ?? "none",
    join: row.join ?? " ",
    placeholders: re(row.placeholders, "gu"),
    tightJoin: re(row.tightJoin),
    file: row.file ?? [],
    messageSkip: re(row.messageSkip),
    output: row.output ?? false,
  };
}

let table: RuleTable | undefined;

export function ruleTable(): RuleTable {
  if (table) return table;
  const json = JSON.parse(readFileSync(FILE, "utf8")) as {
    results: Record<string, RuleRow>;
    languages: Record<string, { separator: string; results?: string[] }>;
  };
  const rules = new Map(Object.entries(json.results).map(([id, row]) => [id, compile(id, row)]));
  const byLanguage = new Map<string, ResultsRule[]>();
  const separators = new Map<string, string>();
  for (const [language, row] of Object.entries(json.languages)) {
    separators.set(language, row.separator);
    const list = (row.results ?? []).map((id) => {
      const rule = rules.get(id);
      if (!rule) throw new Error(`language ${language}: unknown results rule ${id}`);
      return rule;
    });
    if (list.length > 0) byLanguage.set(language, list);
  }
  table = { byLanguage, separators };
  return table;
}

/** The regular expression that splits a symbol of `language` under `rule`. */
export function symbolSplitter(rule: ResultsRule, language: string): RegExp {
  return rule.symbolSplit ?? new RegExp(escapeRegExp(ruleTable().separators.get(language) ?? "."), "u");
}
