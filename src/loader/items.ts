// Requirements and tests files: each entry checked against its field table and turned into
// a Requirement or a Test. An entry with problems is still registered when it has an ID, so
// that references to it do not add misleading "unknown ref" errors.

import { quote } from "../quote.js";
import { collectReferences, type FileContext, locate } from "./collect.js";
import { FILE_SPECS, type ObjectSpec, REQUIREMENT, STEP, TEST } from "./format/fields.js";
import { describe, entryOf, type SMap, type SNode, stringValue } from "./format/node.js";
import { readFields } from "./format/read-fields.js";
import { ownString, type StringPool } from "./own-strings.js";
import type { Requirement, Step, Test } from "./types.js";

/** IDs a code tag can name (speky:<project>#<ID>). */
const TAGGABLE_ID = /^[A-Za-z0-9_-]+$/;

/** The list fields' value when absent: one shared array, as loaded data is frozen anyway. */
const NONE = Object.freeze([]) as unknown as string[];

export function readItemsFile(root: SMap, kind: "requirements" | "tests", ctx: FileContext): void {
  const spec = FILE_SPECS[kind];
  const file = readFields(root, spec, spec.name, ctx.report);
  const strings = ctx.out.strings;
  const category = strings.shared((file.category as string | undefined) ?? "");
  const list = file[kind] as { items: SNode[] } | undefined;
  const itemSpec = kind === "requirements" ? REQUIREMENT : TEST;
  const { file: source_file, project } = ctx;
  list?.items.forEach((node, i) => {
    const entry = readEntry(node, i, itemSpec, ctx);
    if (!entry) return;
    const { map, fields: f, label } = entry;
    // IDs are unique, and the IDs a list names mostly so: copied, not pooled (a pool of every
    // ID was a 300,000-entry Map built and dropped by every load).
    const id = ownString(entry.id);
    const loc = locate(ctx, map);
    const long = ownString((f.long as string | undefined) ?? "");
    const ref = ownList(f.ref);
    if (kind === "requirements") {
      const tags = f.tags === undefined || (f.tags as string[]).length === 0 ? NONE : strings.sharedList(f.tags as string[]);
      const r: Requirement = { kind: "requirement", id, category, long, tags, ref, source_file, project, loc };
      // Optional fields are set only when given, so that absent ones stay absent (not undefined).
      if (f.short !== undefined) r.short = ownString(f.short as string);
      if (f.client_statement !== undefined) r.client_statement = ownString(f.client_statement as string);
      if (f.properties !== undefined) r.properties = ownProperties(strings, f.properties as Record<string, string | number>);
      ctx.out.items.push(r);
      collectReferences(ctx, map, "ref");
    } else {
      const prereq = ownList(f.prereq);
      const steps = readSteps(f.steps as { items: SNode[] } | undefined, label, ctx);
      const t: Test = { kind: "test", id, category, long, ref, prereq, steps, source_file, project, loc };
      if (f.short !== undefined) t.short = ownString(f.short as string);
      if (f.initial !== undefined) t.initial = ownString(f.initial as string);
      ctx.out.items.push(t);
      collectReferences(ctx, map, "ref");
      collectReferences(ctx, map, "prereq");
    }
  });
}

/** A list of IDs as the model keeps it: own strings, or the shared empty list. */
function ownList(list: unknown): string[] {
  return list === undefined || (list as string[]).length === 0 ? NONE : (list as string[]).map(ownString);
}

function ownProperties(strings: StringPool, properties: Record<string, string | number>): Record<string, string | number> {
  const owned: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(properties)) {
    owned[strings.shared(key)] = typeof value === "string" ? strings.shared(value) : value;
  }
  return owned;
}

/** One list entry, read when it is a mapping with an ID. */
function readEntry(node: SNode, index: number, spec: ObjectSpec, ctx: FileContext) {
  if (node.type !== "map") {
    ctx.report.error(node, `${spec.name} #${index + 1} must be a mapping, got ${describe(node)}`);
    return undefined;
  }
  const idNode = entryOf(node, "id")?.value;
  const id = stringValue(idNode);
  const label = id === undefined ? `${spec.name} #${index + 1}` : `${spec.name} ${quote(id)}`;
  const fields = readFields(node, spec, label, ctx.report);
  if (id === undefined) return undefined;
  if (!TAGGABLE_ID.test(id)) {
    const why = "tags accept letters, digits, '_' and '-'";
    ctx.report.warning(idNode!, `${label}: this ID cannot be named in a code tag (${why})`);
  }
  return { id, map: node, fields, label };
}

function readSteps(list: { items: SNode[] } | undefined, label: string, ctx: FileContext): Step[] {
  const steps: Step[] = [];
  list?.items.forEach((node, i) => {
    const where = `${label}, step ${i + 1}`;
    if (node.type !== "map") {
      ctx.report.error(node, `${where} must be a mapping with an 'action', got ${describe(node)}`);
      return;
    }
    const s = readFields(node, STEP, where, ctx.report);
    const step: Step = { action: ownString((s.action as string | undefined) ?? "") };
    if (s.run !== undefined) step.run = ownString(s.run as string);
    if (s.expected !== undefined) step.expected = ownString(s.expected as string);
    if (s.sample !== undefined) step.sample = ownString(s.sample as string);
    if (s.sample_lang !== undefined) step.sample_lang = ctx.out.strings.shared(s.sample_lang as string);
    steps.push(step);
  });
  return steps;
}
