// The workflows as MCP prompts, one per skill of the Claude Code plugin (skills/<name>/SKILL.md,
// same name, same description): a client that is not Claude Code finds them in prompts/list,
// and every client can complete their arguments (IDs, categories, tags, tagged files) from the
// model being served. A prompt's text names the tools to call, in order, with the arguments
// given filled in; an argument naming nothing the model holds is refused (InvalidParams).
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, type GetPromptResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Model } from "../model/model.js";
import { quote, shown } from "../quote.js";
import { completeFrom, listOf, requirementIdsIn } from "./completion.js";

type Args = Record<string, string | undefined>;
type Completer = (model: Model, typed: string, context: Args) => readonly string[];

interface PromptArg {
  description: string;
  complete?: Completer;
}

export interface PromptSpec {
  name: string;
  title: string;
  /** Also the description of the skill of the same name (test/plugin-prompts.test.ts compares them). */
  description: string;
  args: Record<string, PromptArg>;
  text(model: Model, args: Args): string;
}

const ids: Completer = (m, typed) => completeFrom(listOf(m, "ids"), typed);
const categories: Completer = (m, typed) => completeFrom(listOf(m, "categories"), typed);
const tags: Completer = (m, typed) => completeFrom(listOf(m, "tags"), typed);
const files: Completer = (m, typed) => completeFrom(listOf(m, "files"), typed);
const requirements: Completer = (m, typed, context) => completeFrom(requirementIdsIn(m, context.category), typed);

/** Manifest names a prompt spells out, at most (a monorepo may serve hundreds). */
const TAG_FORMS = 5;

/** `speky:<name>#<ID>` for the manifests served, the first TAG_FORMS of them. */
function tagForm(model: Model): string {
  const names = [...new Set(model.manifests.map((m) => m.name))];
  if (names.length === 0) return "`speky:<project>#<ID>` (<project> is the manifest's name)";
  const forms = names.slice(0, TAG_FORMS).map((n) => `\`speky:${shown(n)}#<ID>\``);
  const more = names.length > TAG_FORMS ? ` or another of the ${names.length} manifests' names` : "";
  return `${forms.join(" or ")}${more} (the manifest's name, then the ID)`;
}

function refuse(message: string): never {
  throw new McpError(ErrorCode.InvalidParams, message);
}

function known(model: Model, id: string | undefined, kind?: "requirement"): string | undefined {
  if (!id) return undefined;
  const item = model.byId.get(id);
  if (item === undefined) refuse(`ID ${quote(id)} not found: list_all_ids lists the IDs`);
  if (kind && item.kind !== kind) refuse(`${shown(id)} is a ${item.kind}, not a ${kind}`);
  return id;
}

function knownTag(model: Model, tag: string | undefined): string | undefined {
  if (tag && !model.tags.has(tag)) refuse(`Tag ${quote(tag)} not found: list_all_tags lists the tags`);
  return tag || undefined;
}

function knownCategory(model: Model, category: string | undefined): string | undefined {
  if (category && !model.requirementsByCategory.has(category)) refuse(`Category ${quote(category)} not found`);
  return category || undefined;
}

const lines = (...parts: (string | false | undefined)[]) => parts.filter((p) => typeof p === "string").join("\n");

// speky:speky-ts#MCP-PROMPTS
export const PROMPTS: readonly PromptSpec[] = [
  {
    name: "start-specification",
    title: "Start a specification",
    description:
      "Start a speky specification from a code base: the manifest, the first requirements, and tags on the code that implements them.",
    args: {
      category: { description: "Category of the first requirements, e.g. functional (new or existing)", complete: categories },
      folder: { description: "The part of the code base to start with, e.g. src/cart" },
    },
    text: (model, { category, folder }) =>
      lines(
        `Write the first requirements of this project's specification${folder ? ` for the code in ${shown(folder)}` : ""}, and tag the code that implements them.`,
        "1. See what exists: get_status (what is loaded), list_all_ids and list_all_tags. Before writing a requirement, search_text for one about the same thing and extend it instead.",
        `2. Read the code and write what it must do as requirements: a file with \`kind: requirements\`, \`category: ${category ? shown(category) : "functional"}\` and a \`requirements\` list, each with \`id\` (unique across requirements and tests, e.g. REQ-1), \`short\` (one line) and \`long\` (what the code must do, testable); \`tags\` for cross-cutting concerns. The manifest's \`files\` must match the file.`,
        `3. Tag the code that implements each one: a comment ${tagForm(model)} directly above the function or class, no blank line between; in a docstring it works too.`,
        "4. Check: list_problems names tags of unknown IDs and the spec files' errors; get_requirement shows each requirement's code_references once the server has reloaded.",
      ),
  },
  {
    name: "write-test-plans",
    title: "Write test plans",
    description: "Write speky test plans for requirements that lack them, and tag the automated tests that carry them out.",
    args: {
      requirement: { description: "A requirement ID to write test plans for", complete: requirements },
      category: { description: "Only requirements of this category", complete: categories },
    },
    text: (model, args) => {
      const requirement = known(model, args.requirement, "requirement");
      const category = knownCategory(model, args.category);
      const scope = requirement
        ? `requirement ${shown(requirement)}`
        : `the least tested requirements${category ? ` of category ${shown(category)}` : ""}`;
      return lines(
        `Write test plans for ${scope}.`,
        requirement
          ? `1. get_requirement ${shown(requirement)}: its long text, client statement and tested_by; search_tests with tester_of ${shown(requirement)} lists the plans it has.`
          : `1. least_tested_requirements${category ? ` with category ${shown(category)}` : ""} ranks requirements by their test plans, fewest first; test_plan_coverage shows which have none (no_test_plan). Take them in that order, get_requirement for each.`,
        "2. Write each test plan in a file with `kind: tests`, `category` and a `tests` list: `id` (unique, e.g. TST-1), `short`, `long`, `ref` (the requirement IDs it validates), `initial` (the state before), `prereq` (tests to run first) and `steps`, each with `action`, `expected` and `run` (the shell command) where there is one.",
        `3. Automate what can be: write the test in the project's test framework and tag it ${tagForm(model)} with the test plan's ID; test_plan_coverage then counts the requirement as automated.`,
        "4. Check: list_problems (unknown IDs, spec errors), get_test for each new plan (is_test tells which tagged code is an automated test).",
      );
    },
  },
  {
    name: "trace-to-ids",
    title: "Trace code and tests to IDs",
    description:
      "Trace code and tests to speky requirement and test IDs: where a requirement is implemented and tested, and what a piece of code implements.",
    args: {
      id: { description: "A requirement or test ID to trace", complete: ids },
      tag: { description: "Trace every requirement with this tag", complete: tags },
      file: { description: "A tagged source file: what does its code implement?", complete: files },
    },
    text: (model, args) => {
      const id = known(model, args.id);
      const tag = knownTag(model, args.tag);
      const file = args.file || undefined;
      const kind = id ? model.byId.get(id)!.kind : undefined;
      return lines(
        `Trace ${[id && `${kind} ${shown(id)}`, tag && `the requirements tagged ${shown(tag)}`, file && `the code of ${shown(file)}`].filter(Boolean).join(", ") || "the specification"} to code and tests.`,
        id &&
          kind === "requirement" &&
          `- get_requirement ${shown(id)}: code_references (file, line, symbol) is where it is implemented, tested_by the test plans that validate it; get_test for each of those.`,
        id &&
          kind === "test" &&
          `- get_test ${shown(id)}: ref names the requirements it validates; code_references with is_test true are the automated tests that carry it out.`,
        tag && `- search_requirements with tag ${shown(tag)}, then get_requirement for each.`,
        file &&
          `- find_code_references with file ${shown(file)} (and a line, for the definition there): the requirement or test each tag names.`,
        !id &&
          !tag &&
          !file &&
          "- test_plan_coverage and least_tested_requirements for the whole; get_requirement for the ones to look at.",
        "Report what is missing: requirements with no code_references (not implemented, or not tagged), requirements with no tested_by, test plans whose tagged code has no automated test (is_test false). To close a gap, tag the code with the ID; list_problems checks the new tags.",
      );
    },
  },
  {
    name: "review-change",
    title: "Review a change",
    description:
      "Review what a change does to the speky specification: requirements and tests changed, tags added and removed, coverage lost, suspect links and tests to run again (speky diff).",
    args: {
      base: { description: "The git revision to compare with, e.g. main or origin/main (default main)" },
    },
    text: (_model, { base }) => {
      const rev = base ? shown(base) : "main";
      return lines(
        `Review what the change since ${rev} does to the specification.`,
        `1. changes_since with base ${rev} (on a terminal: \`speky diff ${rev} --format markdown\`): requirements and tests added, removed and changed, code tags added and removed, coverage changes, impact (tagged code the diff touched), suspect (a requirement whose text changed while its code did not) and rerun (test plans to run again).`,
        "2. For each suspect requirement: get_requirement, read its tagged code, and say whether the code still does what the new text says.",
        "3. For each requirement in impact: is its test plan still right? Name the rerun tests to run.",
        "4. Removed tags and coverage that went down lose traceability: say which requirements lost code or tests, and whether that was meant.",
        "5. list_problems: no tag of the change may name an unknown ID.",
        "Summarize for the reviewer: what changed in the spec, what needs a second look, what to run.",
      );
    },
  },
];

/** The prompt's arguments as the SDK wants them: optional strings, each completed from the model when it has a completer. */
function argsSchema(spec: PromptSpec, getModel: () => Model): z.ZodRawShape {
  const shape: z.ZodRawShape = {};
  for (const [name, arg] of Object.entries(spec.args)) {
    const field = z.string().optional().describe(arg.description);
    const complete = arg.complete;
    shape[name] = complete
      ? completable(field, (typed, context) => [...complete(getModel(), typed ?? "", context?.arguments ?? {})])
      : field;
  }
  return shape;
}

export function promptResult(spec: PromptSpec, model: Model, args: Args): GetPromptResult {
  return { description: spec.description, messages: [{ role: "user", content: { type: "text", text: spec.text(model, args) } }] };
}

export function registerPrompts(server: McpServer, getModel: () => Model): void {
  for (const spec of PROMPTS) {
    server.registerPrompt(spec.name, { title: spec.title, description: spec.description, argsSchema: argsSchema(spec, getModel) }, (args) =>
      promptResult(spec, getModel(), args as Args),
    );
  }
}
