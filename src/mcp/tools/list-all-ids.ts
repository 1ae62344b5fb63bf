import { z } from "zod";
import { lazy } from "../answers/paging.js";
import { defineTool } from "../tool.js";

const same = (id: string) => id;

export const listAllIdsTool = defineTool({
  name: "list_all_ids",
  title: "List all IDs",
  description:
    "Every requirement ID and every test ID, each list sorted: an overview of the specification and a way " +
    "to pick a fresh ID that does not collide. With limit, pages run through the requirements, then the tests.",
  input: {},
  output: { requirements: z.array(z.string()), tests: z.array(z.string()) },
  // Paged as one sequence: the requirements, then the tests.
  pages: ["requirements", "tests"],
  // The model's own sorted lists, not copies.
  run: (model) => ({ requirements: lazy(model.requirementIds, same), tests: lazy(model.testIds, same) }),
});
