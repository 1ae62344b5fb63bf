// How much of a page an item's view takes, estimated before any page is written: the views of
// one page (names.ts) stay under PAGE_WEIGHT together. Own texts count whole (the view shows
// them whole), each listed entry a fixed share (lists and the titles in them are bounded).
import type { Requirement, Test } from "../loader/types.js";
import type { Model } from "../model/model.js";
import { LIST_ITEMS, STEPS_CHARS, TITLE_CHARS } from "./bounds.js";

/** Characters of one listed entry at most: a cut title and its link. */
const ENTRY = TITLE_CHARS + 200;
const entries = (n: number | undefined) => Math.min(n ?? 0, LIST_ITEMS) * ENTRY;

/** Characters of a test's steps and initial state, as a requirement's view shows them. */
export function stepsWeight(t: Test): number {
  let n = t.initial?.length ?? 0;
  for (const s of t.steps) n += s.action.length + (s.run?.length ?? 0) + (s.expected?.length ?? 0) + (s.sample?.length ?? 0);
  return n;
}

function commentsWeight(model: Model, id: string): number {
  const list = model.commentsAbout.get(id) ?? [];
  let n = entries(list.length);
  for (let i = 0; i < Math.min(list.length, LIST_ITEMS); i++) n += list[i].text.length;
  return n;
}

export function requirementWeight(model: Model, r: Requirement): number {
  const tests = model.testedBy.get(r.id) ?? [];
  let steps = 0;
  for (let i = 0; i < Math.min(tests.length, LIST_ITEMS) && steps < STEPS_CHARS; i++) steps += stepsWeight(tests[i]);
  let properties = 0;
  for (const [k, v] of Object.entries(r.properties ?? {})) properties += k.length + String(v).length + 50;
  return (
    1_000 +
    r.long.length +
    (r.short?.length ?? 0) +
    (r.client_statement?.length ?? 0) +
    properties +
    Math.min(steps, STEPS_CHARS) +
    entries(r.ref.length) +
    entries(model.referencedBy.get(r.id)?.length) +
    entries(tests.length) +
    entries(model.codeReferencesById.get(r.id)?.length) +
    commentsWeight(model, r.id)
  );
}

export function testWeight(model: Model, t: Test): number {
  return (
    1_000 +
    t.long.length +
    (t.short?.length ?? 0) +
    stepsWeight(t) +
    entries(t.ref.length) +
    entries(t.prereq.length) +
    entries(model.codeReferencesById.get(t.id)?.length) +
    commentsWeight(model, t.id)
  );
}
