// Titles as vitest, jest, mocha and RSpec write them (verification.md, "Matching a testcase to
// tagged test code" and "Real suites are tagged the way their teams group tests"): a tagged
// test's whole title (its describe titles joined as the runner joins them), a `.each` title's
// placeholders, and a tagged describe/context that holds every testcase whose title starts
// with its own. Every look-up is linear in the testcase's title: no pattern is built from a
// title (a backtracking one held `check` for seconds on a few long names).
import type { ResultsRule } from "./rules.js";

/** A title with more placeholders than this is matched exactly (a template is tried on every title). */
const MAX_PLACEHOLDERS = 16;
/** Ways of joining one symbol's parts tried at most (RSpec joins `#x` with or without a space). */
const MAX_JOINS = 8;
/** Container titles compared in full for one testcase (a bound on hash collisions' work). */
const MAX_VERIFIED = 64;

/**
 * A title with placeholders (`%s`, `${x}`, `#{x}`). Each placeholder stands for one or more
 * characters; none crosses the runner's describe separator: both titles are cut at it first and
 * their parts matched one by one. Within a part, the literal pieces are found left to right,
 * each at its first place after the one before (the first at the start, the last at the end),
 * which finds a match whenever there is one.
 */
// speky:speky-ts#RESULTS-LINEAR
export class TitleTemplate {
  private constructor(
    /** Per part of the title (cut at the separator): its literal pieces around the placeholders. */
    private readonly parts: string[][],
    private readonly separator: string | null,
    /** The literal text before the first placeholder: a cheap first test. */
    private readonly start: string,
  ) {}

  /** The template of a title, or null when it has no placeholder (or too many). */
  static of(title: string, placeholders: RegExp, separator: string | null): TitleTemplate | null {
    const cut = separator ? title.split(separator) : [title];
    let count = 0;
    const parts = cut.map((part) => {
      const pieces: string[] = [];
      let at = 0;
      placeholders.lastIndex = 0;
      for (const m of part.matchAll(placeholders)) {
        pieces.push(part.slice(at, m.index));
        at = m.index + m[0].length;
        count++;
      }
      pieces.push(part.slice(at));
      return pieces;
    });
    if (count === 0 || count > MAX_PLACEHOLDERS) return null;
    placeholders.lastIndex = 0;
    const first = placeholders.exec(title);
    return new TitleTemplate(parts, separator, first ? title.slice(0, first.index) : title);
  }

  /** Whether the whole title is one this template stands for. */
  matches(title: string): boolean {
    if (!title.startsWith(this.start)) return false;
    const cut = this.separator ? title.split(this.separator) : [title];
    return cut.length === this.parts.length && this.parts.every((pieces, i) => piecesMatch(pieces, cut[i]));
  }

  /** Whether the title starts with one this template stands for, followed by more parts. */
  startsTitle(title: string, boundary: (title: string, at: number) => boolean): boolean {
    if (!title.startsWith(this.start)) return false;
    if (this.separator) {
      const cut = title.split(this.separator);
      return cut.length > this.parts.length && this.parts.every((pieces, i) => piecesMatch(pieces, cut[i]));
    }
    return piecesStart(this.parts[0], title, boundary);
  }
}

/** Where the middle pieces end when found left to right after the first, or -1. */
function middle(pieces: readonly string[], text: string, end: number): number {
  let at = pieces[0].length;
  for (let i = 1; i < pieces.length - 1; i++) {
    // A placeholder takes at least one character before the next piece.
    const found = text.indexOf(pieces[i], at + 1);
    if (found < 0 || found + pieces[i].length > end) return -1;
    at = found + pieces[i].length;
  }
  return at;
}

/** Whether `text` is the pieces with one or more characters between each two. */
function piecesMatch(pieces: readonly string[], text: string): boolean {
  if (pieces.length === 1) return text === pieces[0];
  const last = pieces[pieces.length - 1];
  const end = text.length - last.length;
  if (!text.startsWith(pieces[0]) || end < pieces[0].length || !text.endsWith(last)) return false;
  const at = middle(pieces, text, end);
  return at >= 0 && end - at >= 1;
}

/** Whether `text` starts with the pieces (one or more characters between each two) at a boundary. */
function piecesStart(pieces: readonly string[], text: string, boundary: (title: string, at: number) => boolean): boolean {
  if (!text.startsWith(pieces[0])) return false;
  const at = middle(pieces, text, text.length);
  if (at < 0) return false;
  const last = pieces[pieces.length - 1];
  // The last placeholder's end: the first place after it where the last piece stands before a boundary.
  for (let from = at + 1, tries = 0; tries < MAX_PLACEHOLDERS * 4; tries++) {
    const found = text.indexOf(last, from);
    if (found < 0 || found + last.length >= text.length) return false;
    if (boundary(text, found + last.length)) return true;
    from = found + 1;
  }
  return false;
}

/** The ways the runner may write a symbol's parts as one title: `join` between them, or none before a tight part. */
export function titleJoins(parts: readonly string[], rule: ResultsRule): string[] {
  let out = [parts[0] ?? ""];
  for (const part of parts.slice(1)) {
    const next = out.map((t) => t + rule.join + part);
    if (rule.tightJoin?.test(part)) for (const t of out) if (next.length < MAX_JOINS) next.push(t + part);
    out = next.slice(0, MAX_JOINS);
  }
  return [...new Set(out)];
}

/** Java's string hash of a text's first characters, one character at a time. */
const step = (hash: number, code: number) => (Math.imul(hash, 31) + code) | 0;

function hashOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = step(hash, text.charCodeAt(i));
  return hash;
}

/** The candidates of one titles rule: tests by whole title or template, containers by the start of a title. */
// speky:speky-ts#RESULTS-CONTAINERS
export class TitleIndex<C> {
  private readonly exact = new Map<string, C[]>();
  private readonly templates: { template: TitleTemplate; candidate: C }[] = [];
  private readonly containers = new Map<string, C[]>();
  /** Container titles by their hash: a title's starts are looked up as its hash grows. */
  private readonly byHash = new Map<number, string[]>();
  private readonly containerTemplates: { template: TitleTemplate; candidate: C }[] = [];
  private readonly separator: string | null;

  constructor(private readonly rule: ResultsRule) {
    this.separator = rule.join.trim() === "" ? null : rule.join;
  }

  /** A tagged test or, when `container`, a tagged describe/context holding the tests below it. */
  add(parts: readonly string[], container: boolean, candidate: C): void {
    for (const title of titleJoins(parts, this.rule)) {
      const template = this.rule.placeholders ? TitleTemplate.of(title, this.rule.placeholders, this.separator) : null;
      if (template) (container ? this.containerTemplates : this.templates).push({ template, candidate });
      else if (!container) push(this.exact, title, candidate);
      else {
        if (!this.containers.has(title)) push(this.byHash, hashOf(title), title);
        push(this.containers, title, candidate);
      }
    }
  }

  /** Whether a container's title can end at `at` of a testcase's title: the runner's join (or a tight part) follows. */
  private readonly boundary = (title: string, at: number): boolean =>
    title.startsWith(this.rule.join, at) || (this.rule.tightJoin?.test(title.slice(at, at + 2)) ?? false);

  /** The candidates a testcase's title names: exactly or by a template (tests), or as a container of it. */
  find(title: string): { tests: C[]; containers: C[] } {
    const tests = [...(this.exact.get(title) ?? [])];
    for (const t of this.templates) if (t.template.matches(title)) tests.push(t.candidate);
    const out: C[] = [];
    if (this.byHash.size > 0) {
      let hash = 0;
      let verified = 0;
      for (let i = 0; i < title.length - 1 && verified < MAX_VERIFIED; i++) {
        hash = step(hash, title.charCodeAt(i));
        const keys = this.byHash.get(hash);
        if (!keys || !this.boundary(title, i + 1)) continue;
        for (const key of keys) {
          if (key.length !== i + 1 || verified++ >= MAX_VERIFIED || !title.startsWith(key)) continue;
          for (const c of this.containers.get(key)!) out.push(c);
        }
      }
    }
    for (const t of this.containerTemplates) if (t.template.startsTitle(title, this.boundary)) out.push(t.candidate);
    return { tests, containers: [...new Set(out)] };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
