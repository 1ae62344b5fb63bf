import { z } from "zod";
import { brief, uniqueSorted } from "../../model/answer-shapes.js";
import { lazy } from "../answers/paging.js";
import { testsMatching } from "../filters.js";
import * as schema from "../schemas.js";
import { defineTool } from "../tool.js";

export const searchTestsTool = defineTool({
  name: "search_tests",
  title: "Search tests",
  description:
    "List tests (test plans), optionally filtered by category and/or by the requirement they validate " +
    "(tester_of: a requirement ID); both filters combine. Without filters, returns every test. Each entry " +
    "gives id, category and short title, sorted by ID. Use get_test for the steps.",
  input: {
    category: z.string().optional().describe("Exact test category"),
    tester_of: z.string().optional().describe("Requirement ID: only the tests whose ref names it"),
  },
  output: { tests: z.array(schema.brief) },
  pages: ["tests"],
  run: (model, { category, tester_of }) => ({
    tests: lazy(uniqueSorted(testsMatching(model, category, tester_of)), brief),
  }),
});
