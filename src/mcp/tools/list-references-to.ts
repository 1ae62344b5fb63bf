import { summary, uniqueSorted } from "../../model/answer-shapes.js";
import { shown } from "../../quote.js";
import { lazy } from "../answers/paging.js";
import * as schema from "../schemas.js";
import { defineTool, ToolError } from "../tool.js";

export const listReferencesToTool = defineTool({
  name: "list_references_to",
  title: "List references to",
  description:
    "Impact analysis: the requirements whose ref field names the given ID (a requirement or a test), as " +
    "summaries sorted by ID; empty when nothing refers to it. For the tests of a requirement use " +
    "search_tests with tester_of.",
  input: { id: schema.idArg },
  output: schema.requirementList,
  pages: ["requirements"],
  run: (model, { id }) => {
    if (!model.byId.has(id)) throw new ToolError(`Requirement ${shown(id)} not found`);
    return { requirements: lazy(uniqueSorted(model.referencedBy.get(id) ?? []), summary) };
  },
});
