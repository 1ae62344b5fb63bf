import { z } from "zod";
import type { Requirement } from "../../loader/types.js";
import {
  itemsNamed,
  type Oneliner,
  type RequirementCodeRef,
  requirementCodeRef,
  sortedOneliners,
  withOptional,
} from "../../model/answer-shapes.js";
import type { Model } from "../../model/model.js";
import * as schema from "../schemas.js";
import { requirementVerification, requirementVerificationSchema } from "../verification.js";
import { type Details, type ItemKind, itemDetails, itemTool } from "./get-item.js";

interface RequirementOwn {
  short?: string;
  tags?: string[];
  client_statement?: string;
  properties?: Record<string, string | number>;
  ref?: Oneliner[];
  referenced_by?: Oneliner[];
  tested_by?: Oneliner[];
}

export type RequirementDetails = Details<RequirementOwn, RequirementCodeRef>;

const REQUIREMENT: ItemKind<"requirement", RequirementOwn, RequirementCodeRef> = {
  kind: "requirement",
  own: (model: Model, req: Requirement) => {
    const own: RequirementOwn = {};
    withOptional(own, "short", req.short);
    withOptional(own, "tags", req.tags);
    withOptional(own, "client_statement", req.client_statement);
    withOptional(own, "properties", req.properties);
    withOptional(own, "ref", sortedOneliners(itemsNamed(model.byId, req.ref)));
    withOptional(own, "referenced_by", sortedOneliners(model.referencedBy.get(req.id) ?? []));
    withOptional(own, "tested_by", sortedOneliners(model.testedBy.get(req.id) ?? []));
    return own;
  },
  codeRef: requirementCodeRef,
};

export function getRequirement(model: Model, id: string): RequirementDetails {
  return itemDetails(model, id, REQUIREMENT);
}

export const getRequirementTool = itemTool(
  REQUIREMENT,
  {
    name: "get_requirement",
    title: "Get requirement",
    description:
      "Full details of one requirement when you know its ID: description (long), short title, category, tags, " +
      "client statement, properties, the requirements it refers to (ref) and that refer to it (referenced_by), " +
      "the tests that validate it (tested_by), reviewers' comments, the spec file it comes from, and the code " +
      "locations tagged with its ID (file, line, symbol). Use list_all_ids or search_requirements to find IDs.",
  },
  {
    short: z.string().optional(),
    tags: z.array(z.string()).optional(),
    client_statement: z.string().optional().describe("The client's own words"),
    properties: z.record(schema.stringOrNumber()).optional(),
    ref: z.array(schema.oneliner).optional().describe("Requirements this one refers to"),
    referenced_by: z.array(schema.oneliner).optional().describe("Requirements that refer to this one"),
    tested_by: z.array(schema.oneliner).optional().describe("Tests that validate this requirement"),
  },
  schema.requirementCodeRef,
  { output: { verification: requirementVerificationSchema }, of: requirementVerification },
);
