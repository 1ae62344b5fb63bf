import { z } from "zod";
import { searchTextHits, tokenize } from "../../model/search.js";
import { quote } from "../../quote.js";
import { lazy } from "../paging.js";
import { defineTool, ToolError } from "../tool.js";

export const searchTextTool = defineTool({
  name: "search_text",
  title: "Search text",
  description:
    "Ranked full-text search over requirements and tests: their ID, short title, description, client " +
    "statement and test steps. Use it before writing a requirement or test, to find an existing one about " +
    'the same thing ("is there already a requirement about timeouts?"). Words match case- and ' +
    "accent-insensitively, and as prefixes (time finds timeouts); best matches first. Returns the best 20 " +
    "unless limit says otherwise, with nextCursor for more.",
  input: {
    query: z.string().describe("Free text, e.g. 'session timeout'"),
    kind: z.enum(["requirement", "test"]).optional().describe("Only requirements, or only tests"),
  },
  output: {
    results: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["requirement", "test"]),
        category: z.string(),
        short: z.string().optional(),
        score: z.number().describe("Relevance (BM25), higher is better"),
      }),
    ),
  },
  pages: ["results"],
  defaultLimit: 20,
  run: (model, { query, kind }) => {
    if (tokenize(query).length === 0) throw new ToolError(`Query ${quote(query)} has no word to search for`);
    const { order, hit } = searchTextHits(model, query, kind);
    return { results: lazy(order, hit) };
  },
});
