// Argument checks shared by several tools, so that their error texts cannot drift apart.
// An empty string counts as "no filter", as in speky. An unknown value keeps speky's exact
// text; the closest known one, when one is close, comes beside it (ToolError.didYouMean).

import type { Item, Requirement, Test } from "../loader/types.js";
import type { Model } from "../model/model.js";
import { QUOTE_MAX, quote, shown } from "../quote.js";
import { suggestId, suggestName } from "../text/suggest.js";
import { ToolError } from "./tool.js";

/** Only an argument short enough to be a typo is compared with the known values. */
const closeId = (id: string, known: readonly string[]) => (id.length <= QUOTE_MAX ? suggestId(id, known) : null);

export const unknownTag = (model: Model, tag: string) => new ToolError(`Tag ${quote(tag)} not found`, suggestName(tag, model.tags.keys()));

export const unknownCategory = (category: string, known: Iterable<string>) =>
  new ToolError(`Category ${quote(category)} not found`, suggestName(category, known));

export function requirementsMatching(model: Model, tag?: string, category?: string): readonly Requirement[] {
  if (tag && !model.tags.has(tag)) throw unknownTag(model, tag);
  if (category && !model.requirementsByCategory.has(category)) throw unknownCategory(category, model.requirementsByCategory.keys());
  if (tag) {
    const tagged = model.tags.get(tag)!;
    return category ? tagged.filter((r) => r.category === category) : tagged;
  }
  return category ? model.requirementsByCategory.get(category)! : model.specs.requirements;
}

export function testsMatching(model: Model, category?: string, testerOf?: string): readonly Test[] {
  if (testerOf && !model.byId.has(testerOf)) {
    throw new ToolError(`Requirement ${quote(testerOf)} not found`, closeId(testerOf, model.requirementIds));
  }
  if (category && !model.testsByCategory.has(category)) throw unknownCategory(category, model.testsByCategory.keys());
  if (testerOf) {
    const testers = model.testedBy.get(testerOf) ?? [];
    return category ? testers.filter((t) => t.category === category) : testers;
  }
  return category ? model.testsByCategory.get(category)! : model.specs.tests;
}

const KIND_LABEL = { requirement: "Requirement", test: "Test" } as const;

/** The item of that kind, or the contract's "X not found" / "X is a test, not a requirement". */
export function findItem<K extends Item["kind"]>(model: Model, id: string, kind: K): Extract<Item, { kind: K }> {
  const item = model.byId.get(id);
  if (!item) {
    const known = kind === "requirement" ? model.requirementIds : model.testIds;
    throw new ToolError(`${KIND_LABEL[kind]} ${shown(id)} not found`, closeId(id, known));
  }
  if (item.kind !== kind) throw new ToolError(`${shown(id)} is a ${item.kind}, not a ${kind}`);
  return item as Extract<Item, { kind: K }>;
}
