// `resource_link` content blocks after get_requirement's and get_test's JSON: the item itself and
// the items it names, as the resources the server serves (resources.ts: speky://requirement/ID,
// speky://test/ID). A client can show them, or read one without knowing the next tool to call.
// The JSON stays the first block and stays whole; the links are a bounded convenience beside it.
import type { CallToolResult, ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import type { Item } from "../loader/types.js";
import { itemsNamed, uniqueSorted } from "../model/answer-shapes.js";
import type { Model } from "../model/model.js";
import { resourceUri } from "./resource-uri.js";

/** Links after one answer, at most: the item, then the first of the items it names by ID. */
export const MAX_LINKS = 100;
/** An item whose ID is longer than this gets no link (its URI would be three times as long); the JSON still names it. */
export const MAX_LINKED_ID_CHARS = 1024;
/** Characters of a link's title (the item's short) at most. */
export const MAX_LINK_TITLE_CHARS = 200;

type Role = "itself" | "test" | "requirement" | "referred" | "prereq";

const ROLES: Record<Role, string> = {
  itself: "This item, as get_requirement / get_test answer it",
  test: "A test that validates this requirement",
  requirement: "A requirement this test validates",
  referred: "A requirement this one refers to",
  prereq: "A test to run before this one",
};

function link(item: Item, role: Role): ResourceLink {
  const short = item.short ?? "";
  const title = short === "" ? item.id : short.length > MAX_LINK_TITLE_CHARS ? `${short.slice(0, MAX_LINK_TITLE_CHARS)}…` : short;
  return {
    type: "resource_link",
    uri: resourceUri(item.kind, item.id),
    name: item.id,
    title,
    description: ROLES[role],
    mimeType: "application/json",
  };
}

// speky:speky-ts#MCP-RESOURCE-LINKS
/**
 * The links for the item `id`: itself, then (a requirement) the tests that validate it and the
 * requirements it refers to, or (a test) the requirements it validates and its prerequisite
 * tests, each group sorted by ID; none for an unknown ID.
 */
export function itemLinks(model: Model, id: string): ResourceLink[] {
  const item = model.byId.get(id);
  if (item === undefined) return [];
  const groups: [readonly Item[], Role][] =
    item.kind === "requirement"
      ? [
          [model.testedBy.get(id) ?? [], "test"],
          [itemsNamed(model.byId, item.ref), "referred"],
        ]
      : [
          [itemsNamed(model.byId, item.ref), "requirement"],
          [itemsNamed(model.byId, item.prereq), "prereq"],
        ];
  const links: ResourceLink[] = [];
  const add = (named: Item, role: Role) => {
    if (links.length < MAX_LINKS && named.id.length <= MAX_LINKED_ID_CHARS) links.push(link(named, role));
  };
  add(item, "itself");
  for (const [items, role] of groups) {
    if (links.length >= MAX_LINKS) break;
    for (const named of uniqueSorted(items)) add(named, role);
  }
  return links;
}

/** The result with `links` after its content; an error result, or no links, as it is. */
export function withLinks(result: CallToolResult, links: readonly ResourceLink[]): CallToolResult {
  if (result.isError === true || links.length === 0) return result;
  return { ...result, content: [...result.content, ...links] };
}
