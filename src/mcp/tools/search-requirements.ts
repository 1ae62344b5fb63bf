import { z } from "zod";
import { type Summary, summary, uniqueSorted } from "../../model/answer-shapes.js";
import type { Model } from "../../model/model.js";
import { lazy } from "../answers/paging.js";
import { requirementsMatching } from "../filters.js";
import * as schema from "../schemas.js";
import { defineTool } from "../tool.js";

// speky:speky-ts#MCP-SEARCH-REQUIREMENTS
export function searchRequirements(model: Model, tag?: string, category?: string): { requirements: Summary[] } {
  return { requirements: lazy(uniqueSorted(requirementsMatching(model, tag, category)), summary) };
}

export const searchRequirementsTool = defineTool({
  name: "search_requirements",
  title: "Search requirements",
  description:
    "List requirements, optionally filtered by tag and/or category (exact match; both filters combine). " +
    "Without filters, returns every requirement. Each entry gives id, category, short title and tags, sorted " +
    "by ID. An unknown tag or category is an error: call list_all_tags to see the tags.",
  input: {
    tag: schema.tagArg,
    category: z.string().optional().describe("Exact requirement category, e.g. functional"),
  },
  output: schema.requirementList,
  pages: ["requirements"],
  run: (model, { tag, category }) => searchRequirements(model, tag, category),
});
