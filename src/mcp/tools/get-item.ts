// get_requirement and get_test are one tool over two kinds of item: find the item of that kind
// (or the contract's error), give the fields both share, the kind's own, then its comments and
// its code references (lazy, and paged like the list tools: an item may be tagged in
// thousands of places). get-requirement.ts and get-test.ts say only what differs: the kind's
// own fields, the shape of a code reference, the words.
import { type ZodRawShape, type ZodTypeAny, z } from "zod";
import type { Item } from "../../loader/types.js";
import { type CommentShape, comment, withOptional } from "../../model/answer-shapes.js";
import type { Model } from "../../model/model.js";
import type { CodeReference } from "../../scan/types.js";
import { lazy } from "../answers/paging.js";
import { findItem } from "../filters.js";
import { itemLinks } from "../resource-links.js";
import * as schema from "../schemas.js";
import { defineTool, type ToolSpec } from "../tool.js";

type Kind = Item["kind"];
type ItemOf<K extends Kind> = Extract<Item, { kind: K }>;

/** The fields every item's details start with, in the contract's order. */
interface Head {
  id: string;
  category: string;
  long: string;
  source_file: string;
}

/** What differs between the kinds. */
export interface ItemKind<K extends Kind, Own extends object, Ref> {
  kind: K;
  /** The kind's own fields, in the contract's order, optional ones left out when empty. */
  own(model: Model, item: ItemOf<K>): Own;
  /** A code reference as this kind shows it. */
  codeRef(r: CodeReference): Ref;
}

export type Details<Own, Ref> = Head & Own & { comments?: CommentShape[]; code_references?: Ref[] };

// speky:speky-ts#MCP-GET-REQUIREMENT
// speky:speky-ts#MCP-GET-TEST
/** The details of the item `id` of this kind; the contract's error when it is none, or of the other kind. */
export function itemDetails<K extends Kind, Own extends object, Ref>(
  model: Model,
  id: string,
  kind: ItemKind<K, Own, Ref>,
): Details<Own, Ref> {
  const item = findItem(model, id, kind.kind) as ItemOf<K>;
  const head: Head = { id: item.id, category: item.category, long: item.long, source_file: item.source_file };
  const details: Details<Own, Ref> = { ...head, ...kind.own(model, item) };
  withOptional(details, "comments", (model.commentsAbout.get(id) ?? []).map(comment));
  // speky:speky-ts#MEM-DETAILS-PAGED
  const refs = model.codeReferencesById.get(id) ?? [];
  if (refs.length > 0) details.code_references = lazy(refs, kind.codeRef);
  return details;
}

/** Fields a tool adds after the details (verification from test results), with their schema. */
export interface DetailsTail {
  output: ZodRawShape;
  of(model: Model, id: string): object;
}

/**
 * The tool answering one kind's details: `{id}` in, the head, `own`, comments and code
 * references out, then the tail's fields.
 */
export function itemTool<K extends Kind, Own extends object, Ref>(
  kind: ItemKind<K, Own, Ref>,
  words: { name: string; title: string; description: string },
  own: ZodRawShape,
  codeRef: ZodTypeAny,
  tail?: DetailsTail,
): ToolSpec {
  const noun = kind.kind === "requirement" ? "requirement" : "test";
  return defineTool({
    waitsForScan: true,
    ...words,
    input: { id: schema.idArg },
    output: {
      id: z.string(),
      category: z.string(),
      long: z.string().describe("Full description"),
      source_file: z.string().describe(`Specification file the ${noun} was loaded from`),
      ...own,
      comments: z.array(schema.comment).optional(),
      code_references: z.array(codeRef).optional().describe("Code tagged with this ID"),
      ...tail?.output,
    },
    pages: ["code_references"],
    run: (model, { id }) => ({ ...itemDetails(model, id as string, kind), ...tail?.of(model, id as string) }),
    links: (model, { id }) => itemLinks(model, String(id)),
  }) as ToolSpec;
}
