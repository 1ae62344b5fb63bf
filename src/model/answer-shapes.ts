// The shapes every tool shares (oneliner, summary, comment, step, code reference), built
// here only, so that two tools can never format the same thing two ways. Optional fields are
// left out when absent or empty, as the contract wants; `symbol` is the one field kept as null.
import { compareStrings } from "../diagnostics.js";
import type { Comment, Item, Step } from "../loader/types.js";
import type { CodeReference } from "../scan/types.js";

export interface Oneliner {
  id: string;
  short?: string;
}

export interface Brief extends Oneliner {
  category: string;
}

export interface Summary extends Brief {
  tags?: string[];
}

export interface CommentShape {
  date: string;
  from: string;
  text: string;
  external: boolean;
}

// speky:speky-ts#MCP-CODE-REF-PROJECT
/** `file` stays speky's (relative to the root of the manifest the tag names); `project` says which manifest that is. */
export interface RequirementCodeRef {
  project: string;
  file: string;
  line: number;
  symbol: string | null;
  url?: string;
}

export interface TestCodeRef {
  project: string;
  file: string;
  line: number;
  symbol: string | null;
  is_test: boolean;
  url?: string;
}

/** Copies `value` under `key` unless it is absent or empty ("", [], {}). */
export function withOptional<T extends object, K extends string, V>(target: T, key: K, value: V | undefined | null): T {
  if (value === undefined || value === null || value === "") return target;
  if (Array.isArray(value) && value.length === 0) return target;
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return target;
  (target as Record<string, unknown>)[key] = value;
  return target;
}

export const byId = (a: { id: string }, b: { id: string }) => compareStrings(a.id, b.id);

export function oneliner(item: Item): Oneliner {
  return withOptional({ id: item.id } as Oneliner, "short", item.short);
}

/** `{id, category, short?}`: a test summary, and the head of least_tested_requirements' entries. */
export function brief(item: Item): Brief {
  return withOptional({ id: item.id, category: item.category } as Brief, "short", item.short);
}

export function summary(item: Item): Summary {
  return withOptional(brief(item) as Summary, "tags", item.kind === "requirement" ? item.tags : undefined);
}

/**
 * Items sorted by ID, each once (a `ref` list may name the same ID twice): a stable sort keeps
 * the first of equal IDs first. Without a Map of every ID: on 250,000 requirements its tables
 * were ~15 MB of garbage per call; the sort is skipped when the items come sorted.
 */
export function uniqueSorted<T extends { id: string }>(items: Iterable<T>): T[] {
  const sorted = [...items];
  let inOrder = true;
  for (let i = 1; i < sorted.length && inOrder; i++) inOrder = compareStrings(sorted[i - 1].id, sorted[i].id) <= 0;
  if (!inOrder) sorted.sort(byId);
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (kept === 0 || sorted[kept - 1].id !== sorted[i].id) sorted[kept++] = sorted[i];
  }
  sorted.length = kept;
  return sorted;
}

/** The items an ID list names; the loader guarantees they exist, a missing one is skipped. */
export function itemsNamed(byIdMap: ReadonlyMap<string, Item>, ids: readonly string[]): Item[] {
  const items: Item[] = [];
  for (const id of ids) {
    const item = byIdMap.get(id);
    if (item) items.push(item);
  }
  return items;
}

export function sortedOneliners(items: Iterable<Item>): Oneliner[] {
  return uniqueSorted(items).map(oneliner);
}

export function comment(c: Comment): CommentShape {
  return { date: c.date, from: c.from, text: c.text, external: c.external };
}

export function step(s: Step): Step {
  const shaped: Step = { action: s.action };
  withOptional(shaped, "run", s.run);
  withOptional(shaped, "expected", s.expected);
  withOptional(shaped, "sample", s.sample);
  withOptional(shaped, "sample_lang", s.sample_lang);
  return shaped;
}

export function requirementCodeRef(r: CodeReference): RequirementCodeRef {
  return withOptional({ project: r.project, file: r.file, line: r.line, symbol: r.symbol } as RequirementCodeRef, "url", r.url);
}

export function testCodeRef(r: CodeReference): TestCodeRef {
  return withOptional(
    { project: r.project, file: r.file, line: r.line, symbol: r.symbol, is_test: r.is_test } as TestCodeRef,
    "url",
    r.url,
  );
}
