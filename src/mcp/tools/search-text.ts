import { z } from "zod";
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, searchTextHits, searchTextReady, tokenize } from "../../model/search.js";
import { quote } from "../../quote.js";
import { lazy } from "../answers/paging.js";
import { defineTool, ToolError } from "../tool.js";

const queryAllowed = (query: string) => query.length <= MAX_QUERY_CHARS && new Set(tokenize(query)).size <= MAX_QUERY_WORDS;

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
  // Ranked before the answer, yielding to the event loop (a long query must not hold the server).
  prepare: (model, { query, kind }) =>
    typeof query === "string" && queryAllowed(query)
      ? searchTextReady(model, query, kind as "requirement" | "test" | undefined)
      : undefined,
  run: (model, { query, kind }) => {
    if (tokenize(query).length === 0) throw new ToolError(`Query ${quote(query)} has no word to search for`);
    if (query.length > MAX_QUERY_CHARS) {
      throw new ToolError(`Query ${quote(query)} is too long: at most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_WORDS} words`);
    }
    const words = new Set(tokenize(query)).size;
    if (words > MAX_QUERY_WORDS) {
      throw new ToolError(`Query ${quote(query)} has ${words} words: at most ${MAX_QUERY_WORDS} are searched together`);
    }
    const { order, hit } = searchTextHits(model, query, kind);
    return { results: lazy(order, hit) };
  },
});
