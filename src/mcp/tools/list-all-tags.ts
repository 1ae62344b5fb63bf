import { z } from "zod";
import { compareStrings } from "../../diagnostics.js";
import { defineTool } from "../tool.js";

export const listAllTagsTool = defineTool({
  name: "list_all_tags",
  title: "List all tags",
  description:
    "Every tag used by the requirements, sorted, each once. A namespaced tag (group:subtag) is listed whole. " +
    "Use it before filtering search_requirements or least_tested_requirements by tag.",
  input: {},
  output: { tags: z.array(z.string()) },
  pages: ["tags"],
  run: (model) => ({ tags: [...model.tags.keys()].sort(compareStrings) }),
});
