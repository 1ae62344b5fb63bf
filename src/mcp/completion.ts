// Argument completion (`completion/complete`): the IDs, requirement categories, tags and tagged files of the current model
// for the prompts' arguments (prompts.ts) and the resources' {id} (resources.ts). A value matches
// when it starts with what was typed, ignoring case; the SDK answers the first 100 with the
// total. Sorted lists are made once per model.
import { compareStrings } from "../diagnostics.js";
import type { Model } from "../model/model.js";

/** A value longer than this is never offered: nobody types it, and 100 of them would make a huge answer. */
export const MAX_COMPLETION_CHARS = 1024;

// speky:speky-ts#MCP-COMPLETION
/** The values that start with `typed`, ignoring case, in their order. */
export function completeFrom(values: readonly string[], typed: string): string[] {
  if (typed.length > MAX_COMPLETION_CHARS) return [];
  const prefix = typed.toLowerCase();
  const out: string[] = [];
  for (const value of values) {
    if (value.length <= MAX_COMPLETION_CHARS && value.slice(0, prefix.length).toLowerCase() === prefix) out.push(value);
  }
  return out;
}

type Listed = "requirements" | "tests" | "ids" | "categories" | "tags" | "files";

const lists = new WeakMap<Model, Map<Listed, readonly string[]>>();

const sorted = (values: Iterable<string>) => [...new Set(values)].sort(compareStrings);

function make(model: Model, what: Listed): readonly string[] {
  switch (what) {
    case "requirements":
      return sorted(model.requirementIds);
    case "tests":
      return sorted(model.testIds);
    case "ids":
      return sorted([...model.requirementIds, ...model.testIds]);
    case "categories":
      return sorted(model.requirementsByCategory.keys());
    case "tags":
      return sorted(model.tags.keys());
    case "files":
      return sorted(model.codeReferences.map((r) => r.file));
  }
}

/** The model's sorted list of `what`, made on first use. */
export function listOf(model: Model, what: Listed): readonly string[] {
  let byModel = lists.get(model);
  if (byModel === undefined) lists.set(model, (byModel = new Map()));
  let list = byModel.get(what);
  if (list === undefined) byModel.set(what, (list = make(model, what)));
  return list;
}

/** Requirement IDs, only those of `category` when it names one (a prompt's other argument). */
export function requirementIdsIn(model: Model, category: string | undefined): readonly string[] {
  const inCategory = category ? model.requirementsByCategory.get(category) : undefined;
  return inCategory ? sorted(inCategory.map((r) => r.id)) : listOf(model, "requirements");
}
