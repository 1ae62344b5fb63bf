// What a change did to the specification itself: requirements and tests added, removed and
// changed (which fields, in the spec's own names), and requirements whose coverage bucket
// moved. Lists of names (tags, ref, prereq) compare as sets: reordering them changes nothing;
// steps compare in order, properties as a map. An item of the base only and one of the head only
// whose every field is equal is one item renamed (docs/changes.md): in `renamed`, in neither
// `added` nor `removed`; equal candidates pair in the order of their IDs.
import { compareStrings } from "../diagnostics.js";
import type { Item, Requirement, Step, Test } from "../loader/types.js";
import { summary } from "../model/answer-shapes.js";
import { coverageOf } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import type { ChangedItem, CoverageChange, ItemChanges, ItemSummary, RenamedItem } from "./shapes.js";

const asSet = (list: readonly string[] | undefined) => JSON.stringify([...new Set(list ?? [])].sort(compareStrings));
const asText = (value: string | undefined) => value ?? "";
const asMap = (map: Record<string, string | number> | undefined) =>
  JSON.stringify(Object.entries(map ?? {}).sort(([a], [b]) => compareStrings(a, b)));
const asSteps = (steps: readonly Step[]) =>
  JSON.stringify(steps.map((s) => [s.action, s.run ?? "", s.expected ?? "", s.sample ?? "", s.sample_lang ?? ""]));

/** Each field a requirement or a test may change, by the spec's own name, and its comparable form. */
const REQUIREMENT_FIELDS: Record<string, (r: Requirement) => string> = {
  category: (r) => r.category,
  client_statement: (r) => asText(r.client_statement),
  long: (r) => r.long,
  properties: (r) => asMap(r.properties),
  ref: (r) => asSet(r.ref),
  short: (r) => asText(r.short),
  tags: (r) => asSet(r.tags),
};

const TEST_FIELDS: Record<string, (t: Test) => string> = {
  category: (t) => t.category,
  initial: (t) => asText(t.initial),
  long: (t) => t.long,
  prereq: (t) => asSet(t.prereq),
  ref: (t) => asSet(t.ref),
  short: (t) => asText(t.short),
  steps: (t) => asSteps(t.steps),
};

function changedFields<T extends Item>(fields: Record<string, (item: T) => string>, before: T, after: T): string[] {
  return Object.keys(fields)
    .filter((name) => fields[name](before) !== fields[name](after))
    .sort(compareStrings);
}

const byId = (a: { id: string }, b: { id: string }) => compareStrings(a.id, b.id);

const withProject = (item: Item): ItemSummary => ({ ...summary(item), project: item.project });

// speky:speky-ts#DIFF-RENAMED
/** Pairs items of the base only with items of the head only whose every field is equal. */
function renames<T extends Item>(gone: T[], arrived: T[], fields: Record<string, (item: T) => string>): RenamedItem[] {
  const names = Object.keys(fields);
  const signature = (item: T) => JSON.stringify(names.map((n) => fields[n](item)));
  const candidates = new Map<string, T[]>();
  for (const item of [...arrived].sort(byId)) {
    const key = signature(item);
    const list = candidates.get(key);
    if (list) list.push(item);
    else candidates.set(key, [item]);
  }
  const out: RenamedItem[] = [];
  for (const item of [...gone].sort(byId)) {
    const partner = candidates.get(signature(item))?.shift();
    if (partner) out.push({ from: item.id, to: partner.id, project: partner.project });
  }
  return out;
}

function compareItems<T extends Item>(before: readonly T[], after: readonly T[], fields: Record<string, (item: T) => string>): ItemChanges {
  const old = new Map(before.map((i) => [i.id, i]));
  const now = new Map(after.map((i) => [i.id, i]));
  const changed: ChangedItem[] = [];
  for (const item of after) {
    const was = old.get(item.id);
    if (!was) continue;
    const names = changedFields(fields, was, item);
    if (names.length > 0) changed.push({ id: item.id, project: item.project, fields: names });
  }
  const gone = before.filter((i) => !now.has(i.id));
  const arrived = after.filter((i) => !old.has(i.id));
  const renamed = renames(gone, arrived, fields);
  const from = new Set(renamed.map((r) => r.from));
  const to = new Set(renamed.map((r) => r.to));
  return {
    added: arrived
      .filter((i) => !to.has(i.id))
      .map(withProject)
      .sort(byId),
    removed: gone
      .filter((i) => !from.has(i.id))
      .map(withProject)
      .sort(byId),
    changed: changed.sort(byId),
    renamed: renamed.sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to)),
  };
}

// speky:speky-ts#DIFF-SPEC-CHANGES
export function requirementChanges(base: Model, head: Model): ItemChanges {
  return compareItems(base.specs.requirements, head.specs.requirements, REQUIREMENT_FIELDS);
}

export function testChanges(base: Model, head: Model): ItemChanges {
  return compareItems(base.specs.tests, head.specs.tests, TEST_FIELDS);
}

// speky:speky-ts#DIFF-COVERAGE
/** Requirements on both sides whose test_plan_coverage bucket changed, by ID. */
export function coverageChanges(base: Model, head: Model): CoverageChange[] {
  const out: CoverageChange[] = [];
  for (const id of head.requirementIds) {
    if (base.byId.get(id)?.kind !== "requirement") continue;
    const from = coverageOf(base, id);
    const to = coverageOf(head, id);
    if (from !== to) out.push({ id, project: head.byId.get(id)?.project ?? null, from, to });
  }
  return out;
}

/** Requirements on both sides whose words changed: long, short or client_statement. */
export function rewordedRequirements(changes: ItemChanges): string[] {
  const words = new Set(["long", "short", "client_statement"]);
  return changes.changed.filter((c) => c.fields.some((f) => words.has(f))).map((c) => c.id);
}
