import { z } from "zod";
import type { Step } from "../../loader/types.js";
import type { Model } from "../../model/model.js";
import { findItem } from "../filters.js";
import { lazy } from "../paging.js";
import { itemLinks } from "../resource-links.js";
import * as schema from "../schemas.js";
import {
  type CommentShape,
  comment,
  itemsNamed,
  type Oneliner,
  sortedOneliners,
  step,
  type TestCodeRef,
  testCodeRef,
  withOptional,
} from "../shapes.js";
import { defineTool } from "../tool.js";

export interface TestDetails {
  id: string;
  category: string;
  long: string;
  source_file: string;
  ref: Oneliner[];
  steps: Step[];
  short?: string;
  initial?: string;
  prereq?: Oneliner[];
  comments?: CommentShape[];
  code_references?: TestCodeRef[];
}

// speky:speky-ts#MCP-GET-TEST
export function getTest(model: Model, id: string): TestDetails {
  const test = findItem(model, id, "test");
  const details: TestDetails = {
    id: test.id,
    category: test.category,
    long: test.long,
    source_file: test.source_file,
    ref: sortedOneliners(itemsNamed(model.byId, test.ref)),
    steps: test.steps.map(step),
  };
  withOptional(details, "short", test.short);
  withOptional(details, "initial", test.initial);
  withOptional(details, "prereq", sortedOneliners(itemsNamed(model.byId, test.prereq)));
  withOptional(details, "comments", (model.commentsAbout.get(id) ?? []).map(comment));
  // Lazy, and paged like the list tools: a test may be tagged in thousands of places.
  const refs = model.codeReferencesById.get(id) ?? [];
  if (refs.length > 0) details.code_references = lazy(refs, testCodeRef);
  return details;
}

export const getTestTool = defineTool({
  name: "get_test",
  title: "Get test",
  description:
    "Full details of one test (a test plan) when you know its ID: description, the requirements it validates " +
    "(ref), initial state, prerequisite tests, its steps (action, shell command to run, expected outcome, " +
    "samples), comments, the spec file it comes from, and the code tagged with its ID; is_test tells whether a " +
    "tagged definition is an automated test. Use search_tests or list_all_ids to find test IDs.",
  input: { id: schema.idArg },
  output: {
    id: z.string(),
    category: z.string(),
    long: z.string().describe("Full description"),
    source_file: z.string().describe("Specification file the test was loaded from"),
    ref: z.array(schema.oneliner).describe("Requirements this test validates"),
    steps: z.array(schema.step),
    short: z.string().optional(),
    initial: z.string().optional().describe("Initial state before the steps"),
    prereq: z.array(schema.oneliner).optional().describe("Tests to run first"),
    comments: z.array(schema.comment).optional(),
    code_references: z.array(schema.testCodeRef).optional().describe("Code tagged with this ID"),
  },
  pages: ["code_references"],
  run: (model, { id }) => ({ ...getTest(model, id) }),
  links: (model, { id }) => itemLinks(model, String(id)),
});
