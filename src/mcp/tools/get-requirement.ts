import { z } from "zod";
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
  type RequirementCodeRef,
  requirementCodeRef,
  sortedOneliners,
  withOptional,
} from "../shapes.js";
import { defineTool } from "../tool.js";

export interface RequirementDetails {
  id: string;
  category: string;
  long: string;
  source_file: string;
  short?: string;
  tags?: string[];
  client_statement?: string;
  properties?: Record<string, string | number>;
  ref?: Oneliner[];
  referenced_by?: Oneliner[];
  tested_by?: Oneliner[];
  comments?: CommentShape[];
  code_references?: RequirementCodeRef[];
}

// speky:speky-ts#MCP-GET-REQUIREMENT
export function getRequirement(model: Model, id: string): RequirementDetails {
  const req = findItem(model, id, "requirement");
  const details: RequirementDetails = { id: req.id, category: req.category, long: req.long, source_file: req.source_file };
  withOptional(details, "short", req.short);
  withOptional(details, "tags", req.tags);
  withOptional(details, "client_statement", req.client_statement);
  withOptional(details, "properties", req.properties);
  withOptional(details, "ref", sortedOneliners(itemsNamed(model.byId, req.ref)));
  withOptional(details, "referenced_by", sortedOneliners(model.referencedBy.get(id) ?? []));
  withOptional(details, "tested_by", sortedOneliners(model.testedBy.get(id) ?? []));
  withOptional(details, "comments", (model.commentsAbout.get(id) ?? []).map(comment));
  // speky:speky-ts#MEM-DETAILS-PAGED
  // Lazy, and paged like the list tools: a requirement may be tagged in thousands of places.
  const refs = model.codeReferencesById.get(id) ?? [];
  if (refs.length > 0) details.code_references = lazy(refs, requirementCodeRef);
  return details;
}

export const getRequirementTool = defineTool({
  name: "get_requirement",
  title: "Get requirement",
  description:
    "Full details of one requirement when you know its ID: description (long), short title, category, tags, " +
    "client statement, properties, the requirements it refers to (ref) and that refer to it (referenced_by), " +
    "the tests that validate it (tested_by), reviewers' comments, the spec file it comes from, and the code " +
    "locations tagged with its ID (file, line, symbol). Use list_all_ids or search_requirements to find IDs.",
  input: { id: schema.idArg },
  output: {
    id: z.string(),
    category: z.string(),
    long: z.string().describe("Full description"),
    source_file: z.string().describe("Specification file the requirement was loaded from"),
    short: z.string().optional(),
    tags: z.array(z.string()).optional(),
    client_statement: z.string().optional().describe("The client's own words"),
    properties: z.record(schema.stringOrNumber()).optional(),
    ref: z.array(schema.oneliner).optional().describe("Requirements this one refers to"),
    referenced_by: z.array(schema.oneliner).optional().describe("Requirements that refer to this one"),
    tested_by: z.array(schema.oneliner).optional().describe("Tests that validate this requirement"),
    comments: z.array(schema.comment).optional(),
    code_references: z.array(schema.requirementCodeRef).optional().describe("Code tagged with this ID"),
  },
  pages: ["code_references"],
  run: (model, { id }) => ({ ...getRequirement(model, id) }),
  links: (model, { id }) => itemLinks(model, String(id)),
});
