import { z } from "zod";
import type { Step, Test } from "../../loader/types.js";
import {
  itemsNamed,
  type Oneliner,
  sortedOneliners,
  step,
  type TestCodeRef,
  testCodeRef,
  withOptional,
} from "../../model/answer-shapes.js";
import type { Model } from "../../model/model.js";
import * as schema from "../schemas.js";
import { testVerification, testVerificationSchema } from "../verification.js";
import { type Details, type ItemKind, itemDetails, itemTool } from "./get-item.js";

interface TestOwn {
  ref: Oneliner[];
  steps: Step[];
  short?: string;
  initial?: string;
  prereq?: Oneliner[];
}

export type TestDetails = Details<TestOwn, TestCodeRef>;

const TEST: ItemKind<"test", TestOwn, TestCodeRef> = {
  kind: "test",
  own: (model: Model, test: Test) => {
    const own: TestOwn = { ref: sortedOneliners(itemsNamed(model.byId, test.ref)), steps: test.steps.map(step) };
    withOptional(own, "short", test.short);
    withOptional(own, "initial", test.initial);
    withOptional(own, "prereq", sortedOneliners(itemsNamed(model.byId, test.prereq)));
    return own;
  },
  codeRef: testCodeRef,
};

export function getTest(model: Model, id: string): TestDetails {
  return itemDetails(model, id, TEST);
}

export const getTestTool = itemTool(
  TEST,
  {
    name: "get_test",
    title: "Get test",
    description:
      "Full details of one test (a test plan) when you know its ID: description, the requirements it validates " +
      "(ref), initial state, prerequisite tests, its steps (action, shell command to run, expected outcome, " +
      "samples), comments, the spec file it comes from, and the code tagged with its ID; is_test tells whether a " +
      "tagged definition is an automated test. Use search_tests or list_all_ids to find test IDs.",
  },
  {
    ref: z.array(schema.oneliner).describe("Requirements this test validates"),
    steps: z.array(schema.step),
    short: z.string().optional(),
    initial: z.string().optional().describe("Initial state before the steps"),
    prereq: z.array(schema.oneliner).optional().describe("Tests to run first"),
  },
  schema.testCodeRef,
  { output: { verification: testVerificationSchema }, of: testVerification },
);
