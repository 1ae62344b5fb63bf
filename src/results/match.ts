// Which tagged test each testcase ran (docs/verification.md, "Matching a testcase to tagged test
// code"). Generic: each framework's rule is data (rules.ts). A testcase matches a code
// reference with is_test when the runner's file (if it names one) names the reference's file,
// and its name, without the decoration of one run, is the symbol's last part with the
// enclosing parts the runner gives agreeing. Candidates are found by one map look-up (the
// symbol's last part, or its whole title), never by a scan of every reference.
import type { CodeReference } from "../scan/types.js";
import { type PathField, type ResultsRule, ruleTable, symbolSplitter } from "./rules.js";
import { TitleIndex } from "./titles.js";
import type { Testcase } from "./types.js";

/** Characters kept of a failure's first line. */
export const MAX_MESSAGE = 300;

interface Candidate {
  ref: CodeReference;
  /** The symbol's enclosing parts, outermost first. */
  scopes: string[];
  fileParts: string[];
  /** fileParts with the last one's extension removed (a module path). */
  stemParts: string[];
}

interface RuleIndex {
  rule: ResultsRule;
  /**
   * The symbol's last part (qualified) or its whole title (titles) → candidates, by their
   * innermost scope (qualified: "" for none, or the file's stem for a `module` rule) so that a
   * name shared by thousands of tests (`test_it` in every class) costs no scan of them all.
   */
  byKey: Map<string, Map<string, Candidate[]>>;
  /** qualified: the tagged containers (a class, a suite) among the candidates, filed alike. */
  containers: Map<string, Map<string, Candidate[]>>;
  /** titles: the tests and containers by their titles. */
  titles: TitleIndex<Candidate> | null;
}

export interface Match {
  testcase: Testcase;
  rule: ResultsRule;
}

const pathParts = (p: string) => p.split(/[\\/]+/).filter((s) => s !== "" && s !== ".");

/** How many trailing parts two paths share when the shorter ends the longer, else -1. */
function tailAgreement(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 1; i <= n; i++) if (a[a.length - i] !== b[b.length - i]) return -1;
  return n;
}

/** Trailing parts in common, 0 when none. */
function commonTail(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

function field(testcase: Testcase, name: PathField | "name"): string | undefined {
  return testcase[name];
}

/** The first rule of a language's list whose `when` holds for the testcase. */
function ruleFor(rules: readonly ResultsRule[], testcase: Testcase): ResultsRule | null {
  for (const rule of rules) if (rule.when.every((w) => w.test.test(field(testcase, w.field) ?? ""))) return rule;
  return null;
}

// speky:speky-ts#RESULTS-MATCH
export class Matcher {
  /** One index per rule; languages sharing a rule list share its indexes. */
  private readonly lists = new Map<string, { rules: readonly ResultsRule[]; indexes: Map<string, RuleIndex> }>();
  private readonly splits = new Map<string, string[]>();
  private readonly memo = new Map<string, CodeReference[]>();

  constructor(references: readonly CodeReference[]) {
    const { byLanguage } = ruleTable();
    for (const ref of references) {
      if (!ref.is_test || ref.symbol === null) continue;
      const rules = byLanguage.get(ref.language);
      if (!rules) continue;
      const listKey = rules.map((r) => r.id).join(",");
      let list = this.lists.get(listKey);
      if (!list) this.lists.set(listKey, (list = { rules, indexes: new Map() }));
      const fileParts = pathParts(ref.file);
      const last = fileParts[fileParts.length - 1] ?? "";
      const dot = last.lastIndexOf(".");
      const stemParts = [...fileParts.slice(0, -1), dot > 0 ? last.slice(0, dot) : last];
      for (const rule of rules) {
        let index = list.indexes.get(rule.id);
        if (!index)
          list.indexes.set(
            rule.id,
            (index = { rule, byKey: new Map(), containers: new Map(), titles: rule.mode === "titles" ? new TitleIndex(rule) : null }),
          );
        const parts = ref.symbol.split(symbolSplitter(rule, ref.language)).map((p) => p.trim());
        const candidate: Candidate = { ref, scopes: parts.slice(0, -1), fileParts, stemParts };
        // A describe or context holds the testcases below it; a test's title is its own.
        if (index.titles) index.titles.add(parts, ref.kind === "suite", candidate);
        else {
          const key = parts[parts.length - 1];
          const inner = innermost(rule, candidate);
          file(index.byKey, key, inner, candidate);
          if (!NOT_CONTAINERS.has(ref.kind ?? "")) file(index.containers, key, inner, candidate);
        }
      }
    }
  }

  /** Whether any tagged test can be matched at all. */
  get empty(): boolean {
    return this.lists.size === 0;
  }

  /** The references a testcase ran, each with the rule that matched it. */
  match(testcase: Testcase): { ref: CodeReference; rule: ResultsRule }[] {
    const out: { ref: CodeReference; rule: ResultsRule }[] = [];
    for (const { rules, indexes } of this.lists.values()) {
      const rule = ruleFor(rules, testcase);
      const index = rule && indexes.get(rule.id);
      if (!index) continue;
      // The cases of one parametrized test, or one test in several runs, are looked up once.
      const key = `${rule.id}\0${testcase.classname}\0${testcase.name}\0${testcase.file ?? ""}\0${testcase.suiteFile ?? ""}`;
      let found = this.memo.get(key);
      if (!found) {
        found = rule.mode === "titles" ? this.byTitle(index, testcase) : this.byName(index, testcase);
        if (this.memo.size < MAX_MEMO) this.memo.set(key, found);
      }
      for (const ref of found) out.push({ ref, rule });
    }
    return out;
  }

  private split(rule: ResultsRule, text: string): string[] {
    const key = `${rule.id}\0${text}`;
    let parts = this.splits.get(key);
    if (!parts) {
      parts =
        text === ""
          ? []
          : text
              .split(rule.split)
              .map((p) => p.trim())
              .filter((p) => p !== "");
      if (this.splits.size < 100_000) this.splits.set(key, parts);
    }
    return parts;
  }

  /**
   * The tagged tests a qualified testcase ran: the one its name names, and the tagged
   * containers among the parts the runner gives before it (a class, a `@Nested` class, a
   * fixture), each found as a name whose own enclosing parts are those before it.
   */
  private byName(index: RuleIndex, testcase: Testcase): CodeReference[] {
    const rule = index.rule;
    const named = rule.name!.exec(testcase.name);
    const leaf = named?.groups?.leaf?.trim();
    if (!leaf) return [];
    let given: string[] = [];
    if (rule.classname) {
      const classed = rule.classname.exec(testcase.classname);
      if (!classed) return [];
      given = this.split(rule, classed.groups?.scopes ?? "");
    }
    const nameScopes = named!.groups?.scopes;
    if (nameScopes) given = [...given, ...this.split(rule, nameScopes)];
    const out = this.named(index, index.byKey, testcase, leaf, given);
    if (index.containers.size === 0) return out;
    for (let i = given.length - 1; i >= 0 && i >= given.length - MAX_CONTAINER_DEPTH; i--) {
      if (!index.containers.has(given[i])) continue;
      for (const ref of this.named(index, index.containers, testcase, given[i], given.slice(0, i), true))
        if (!out.includes(ref)) out.push(ref);
    }
    return out;
  }

  /** The candidates named `leaf` whose enclosing parts agree with those `given` before it, best first. */
  private named(
    index: RuleIndex,
    byKey: Map<string, Map<string, Candidate[]>>,
    testcase: Testcase,
    leaf: string,
    given: readonly string[],
    container = false,
  ): CodeReference[] {
    const rule = index.rule;
    const byInner = byKey.get(leaf);
    if (!byInner) return [];
    const candidates = candidatesOf(rule, byInner, given);
    return best(candidates, (c) => {
      let rest: readonly string[];
      if (c.scopes.length <= given.length) {
        if (tailAgreement(given, c.scopes) !== c.scopes.length) return -1;
        rest = given.slice(0, given.length - c.scopes.length);
      } else {
        if (tailAgreement(c.scopes, given) !== given.length) return -1;
        rest = [];
      }
      let score = 0;
      if (rule.rest === "module" && rest.length > 0) {
        if (tailAgreement(rest, c.stemParts) < 0) return -1;
        score += Math.min(rest.length, c.stemParts.length);
      } else if (rule.rest === "package") score += commonTail(rest, c.fileParts.slice(0, -1));
      const file = fileScore(rule, testcase, c);
      // A container is only where the runner names its file (or its module).
      if (container && rule.file.length > 0 && score + file <= 0) return -1;
      return file < 0 ? -1 : score + file;
    });
  }

  private byTitle(index: RuleIndex, testcase: Testcase): CodeReference[] {
    const { tests, containers } = index.titles!.find(testcase.name.trim());
    const rule = index.rule;
    const out = best(tests, (c) => fileScore(rule, testcase, c));
    for (const ref of best(containers, (c) => containerFileScore(rule, testcase, c))) if (!out.includes(ref)) out.push(ref);
    return out;
  }
}

// speky:speky-ts#RESULTS-CONTAINERS
/** Kinds of definition that hold no test: a tag on one of these is never a container. */
const NOT_CONTAINERS = new Set(["function", "method", "test", ""]);

/** Files a candidate under its key and innermost scope. */
function file(byKey: Map<string, Map<string, Candidate[]>>, key: string, inner: string, candidate: Candidate): void {
  let byInner = byKey.get(key);
  if (!byInner) byKey.set(key, (byInner = new Map()));
  const known = byInner.get(inner);
  if (known) known.push(candidate);
  else byInner.set(inner, [candidate]);
}

/** Enclosing parts of a testcase tried as tagged containers, innermost first (nesting deeper is no real suite's). */
const MAX_CONTAINER_DEPTH = 16;

/** Cases kept looked up: a bound on the memo's memory (one entry per distinct testcase). */
const MAX_MEMO = 200_000;

/**
 * What a candidate is filed under beside its name: its innermost scope (the part a runner
 * writes last before the name), and for a `module` rule its file's stem too (the part the
 * runner writes before its scopes): `test_m7\0TestCase3`.
 */
function innermost(rule: ResultsRule, c: Candidate): string {
  const scope = c.scopes.length > 0 ? c.scopes[c.scopes.length - 1] : "";
  return rule.rest === "module" ? `${c.stemParts[c.stemParts.length - 1] ?? ""}\0${scope}` : scope;
}

/** The candidates that can agree with the parts a runner gives, found by look-ups only. */
function candidatesOf(rule: ResultsRule, byInner: Map<string, Candidate[]>, given: readonly string[]): Candidate[] {
  // Without parts given, any candidate may agree.
  if (given.length === 0) return [...byInner.values()].flat();
  const last = given[given.length - 1];
  if (rule.rest !== "module") return [...(byInner.get(last) ?? []), ...(byInner.get("") ?? [])];
  // The module's last part stands just before the scopes: at any place of what is given.
  const out: Candidate[] = [];
  for (let i = 0; i < given.length; i++) {
    const found = byInner.get(`${given[i]}\0${i === given.length - 1 ? "" : last}`);
    if (found) for (const c of found) out.push(c);
  }
  return out;
}

/** -1 when the runner names a file that is not the reference's; else how many parts agree (0: none named). */
function fileScore(rule: ResultsRule, testcase: Testcase, c: Candidate): number {
  for (const name of rule.file) {
    const written = field(testcase, name);
    if (!written) continue;
    const agreement = tailAgreement(pathParts(written), c.fileParts);
    return agreement <= 0 ? -1 : agreement;
  }
  return 0;
}

/**
 * A container's file score: where the rule can name a file, the testcase must name the
 * container's (a title or class that starts another runner's testcase is no container of it).
 */
function containerFileScore(rule: ResultsRule, testcase: Testcase, c: Candidate): number {
  const score = fileScore(rule, testcase, c);
  return score === 0 && rule.file.length > 0 ? -1 : score;
}

/** The candidates with the best non-negative score. */
function best(candidates: readonly Candidate[], score: (c: Candidate) => number): CodeReference[] {
  let top = -1;
  let out: CodeReference[] = [];
  for (const c of candidates) {
    const s = score(c);
    if (s < 0 || s < top) continue;
    if (s > top) {
      top = s;
      out = [];
    }
    out.push(c.ref);
  }
  return out;
}

/** A failed testcase's first line that says something, by its rule; bounded. */
export function failureLine(testcase: Testcase, rule: ResultsRule | null): string | undefined {
  const informative = (text: string | undefined) => {
    for (const raw of (text ?? "").split(/\r?\n/)) {
      const line = raw.trim();
      if (line === "" || rule?.messageSkip?.test(line)) continue;
      return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 3)}...` : line;
    }
    return undefined;
  };
  return informative(testcase.failure) ?? (rule?.output ? informative(testcase.output) : undefined);
}
