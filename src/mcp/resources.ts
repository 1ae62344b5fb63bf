// Requirements and tests as resources (speky://requirement/{id}, speky://test/{id}): the same
// JSON as get_requirement / get_test, listable, with ID completion. An unknown ID is the MCP
// "resource not found" JSON-RPC error, -32002.

import { createHash } from "node:crypto";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { relieveHeap } from "../heap.js";
import type { Item } from "../loader/types.js";
import type { Model } from "../model/model.js";
import { grouped } from "../quote.js";
import { boundedResult, TRUNCATED_META_KEY } from "./answers/fit.js";
import { Listing, MAX_PAGE_CHARS, materialize, pageOf } from "./answers/paging.js";
import { completeFrom } from "./completion.js";
import { resourceUri } from "./resource-uri.js";
import { ToolError } from "./tool.js";
import { getRequirement } from "./tools/get-requirement.js";
import { getTest } from "./tools/get-test.js";

export const RESOURCE_NOT_FOUND = -32002;

/** Thrown out of a read callback: the SDK answers with this code, message and data as they are. */
class ResourceNotFound extends Error {
  readonly code = RESOURCE_NOT_FOUND;
  constructor(
    message: string,
    readonly data: { uri: string },
  ) {
    super(message);
  }
}

interface Kind {
  name: "requirement" | "test";
  ids: (model: Model) => readonly string[];
  details: (model: Model, id: string) => object;
}

const KINDS: readonly Kind[] = [
  { name: "requirement", ids: (m) => m.requirementIds, details: getRequirement },
  { name: "test", ids: (m) => m.testIds, details: getTest },
];

function decode(raw: string | string[] | undefined): string {
  try {
    return decodeURIComponent(String(raw ?? ""));
  } catch {
    return String(raw);
  }
}

const describeKind = (kind: Kind) => `A ${kind.name} by ID, as JSON: the same content as get_${kind.name}`;

/** Characters of a listed resource's title (its short); the whole one is in the resource. */
export const RESOURCE_TITLE_CHARS = 1000;
/** Characters of one listed resource's JSON: past it (an ID of megabytes) it is left out, and said so. */
export const RESOURCE_ENTRY_CHARS = 16 * 1024;

function listed(kind: Kind, item: Item) {
  const title = item.short || item.id;
  return {
    uri: resourceUri(kind.name, item.id),
    name: item.id,
    // Set on every entry, or the template's own title would show for items without a short.
    title: title.length > RESOURCE_TITLE_CHARS ? `${title.slice(0, RESOURCE_TITLE_CHARS)}…` : title,
    description: describeKind(kind),
    mimeType: "application/json",
  };
}

/**
 * The details as get_<kind> answers them without paging: with the first page of code
 * references and the tool's nextCursor when there are more (pass it to get_<kind>).
 */
function detailsOf(kind: Kind, model: Model, id: string): object {
  const full = new Listing(kind.details(model, id) as unknown as Record<string, unknown>);
  const cut = pageOf(`get_${kind.name}`, { id }, full, ["code_references"], {});
  return "whole" in cut ? materialize(full.structured) : cut.structured;
}

function read(kind: Kind, model: Model, uri: URL, id: string, meta?: Record<string, string>): ReadResourceResult {
  try {
    // The same bound as a tool answer, and the same note when it had to cut (fit.ts).
    const fitted = boundedResult(detailsOf(kind, model, id), `speky://${kind.name}/…`);
    const text = (fitted.content[0] as { text: string }).text;
    const notes = { ...meta, ...fitted._meta };
    return {
      contents: [{ uri: uri.href, mimeType: "application/json", text }],
      ...(Object.keys(notes).length > 0 ? { _meta: notes } : {}),
    };
  } catch (error) {
    if (error instanceof ToolError) throw new ResourceNotFound(error.message, { uri: uri.href });
    throw error;
  }
}

/** The model a read answers from, once the first scan is done (or waited for long enough), with a `_meta` note if partial. */
export type ReadModel = () => Promise<{ model: Model; meta?: Record<string, string> }>;

/** The URIs of the resource templates registerResources serves. */
export const RESOURCE_TEMPLATES: readonly string[] = KINDS.map((kind) => templateUri(kind.name));

function templateUri(kind: string): string {
  return `speky://${kind}/{id}`;
}

export function registerResources(
  server: McpServer,
  getModel: () => Model,
  readModel: ReadModel = async () => ({ model: getModel() }),
): void {
  for (const kind of KINDS) {
    // Listed by our own paged resources/list handler below, not by the SDK's (one whole answer).
    const template = new ResourceTemplate(templateUri(kind.name), {
      list: undefined,
      complete: { id: (value) => completeFrom(kind.ids(getModel()), value) },
    });
    server.registerResource(
      kind.name,
      template,
      {
        title: kind.name === "requirement" ? "Requirement" : "Test",
        description: describeKind(kind),
        mimeType: "application/json",
      },
      async (uri, variables) => {
        const { model, meta } = await readModel();
        return read(kind, model, uri, decode(variables.id), meta);
      },
    );
  }
  // Replaces the SDK's handler, which lists every resource in one answer (46 MB for 250,000).
  server.server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    relieveHeap();
    return listPage(getModel(), request.params?.cursor);
  });
}

// speky:speky-ts#SEC-ANSWER-BOUNDS
/**
 * Resources per resources/list page. An entry is ~150 bytes of JSON, so a page stays near
 * 150 KB however large the project; a client follows nextCursor for the rest (MCP pagination).
 */
export const RESOURCE_PAGE_SIZE = 1000;

/** Digest of the listed IDs, so that a cursor issued before a reload that changed them is refused. */
const listDigests = new WeakMap<Model, string>();
function listDigest(model: Model): string {
  let d = listDigests.get(model);
  if (d === undefined) {
    const hash = createHash("sha256");
    for (const kind of KINDS) for (const id of kind.ids(model)) hash.update(`${kind.name}\0${id}\0`);
    listDigests.set(model, (d = hash.digest("base64url").slice(0, 16)));
  }
  return d;
}

function invalidCursor(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

function listPage(
  model: Model,
  cursor: string | undefined,
): { resources: Resource[]; nextCursor?: string; _meta?: Record<string, string> } {
  const digest = listDigest(model);
  let offset = 0;
  if (cursor !== undefined) {
    let parsed: { o?: unknown; d?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown; d?: unknown };
    } catch {
      throw invalidCursor("Invalid cursor: pass a nextCursor exactly as received");
    }
    if (typeof parsed?.o !== "number" || !Number.isInteger(parsed.o) || parsed.o < 0) {
      throw invalidCursor("Invalid cursor: pass a nextCursor exactly as received");
    }
    if (parsed.d !== digest) {
      throw invalidCursor("Stale cursor: the resources changed since it was issued; list again without cursor");
    }
    offset = parsed.o;
  }
  // speky:speky-ts#SEC-ANSWER-FIT
  // RESOURCE_PAGE_SIZE entries, fewer when their JSON passes MAX_PAGE_CHARS (6 KB titles made
  // a page of 6.2 MB); titles cut at RESOURCE_TITLE_CHARS, entries past RESOURCE_ENTRY_CHARS left out.
  const resources: Resource[] = [];
  let end = offset;
  let chars = 0;
  let cutTitles = 0;
  let leftOut = 0;
  let start = 0;
  let total = 0;
  let full = false;
  for (const kind of KINDS) {
    const ids = kind.ids(model);
    total += ids.length;
    for (let i = Math.max(0, end - start); i < ids.length && !full; i++) {
      const item = model.byId.get(ids[i])!;
      const entry = listed(kind, item);
      const size = JSON.stringify(entry).length + 1;
      if (size > RESOURCE_ENTRY_CHARS) leftOut++;
      else if (resources.length > 0 && chars + size > MAX_PAGE_CHARS) full = true;
      else {
        resources.push(entry);
        chars += size;
        if ((item.short?.length ?? 0) > RESOURCE_TITLE_CHARS) cutTitles++;
      }
      if (!full) end = start + i + 1;
      full ||= end - offset >= RESOURCE_PAGE_SIZE;
    }
    start += ids.length;
  }
  const notes: string[] = [];
  if (cutTitles > 0)
    notes.push(`${grouped(cutTitles)} titles cut at ${grouped(RESOURCE_TITLE_CHARS)} characters (the resource holds the whole one)`);
  if (leftOut > 0)
    notes.push(`${grouped(leftOut)} resources left out: their IDs are too long to list (get_requirement and get_test read them)`);
  const meta = notes.length > 0 ? { _meta: { [TRUNCATED_META_KEY]: `${notes.join("; ")}.` } } : {};
  if (end >= total) return { resources, ...meta };
  return { resources, nextCursor: Buffer.from(JSON.stringify({ o: end, d: digest }), "utf8").toString("base64url"), ...meta };
}
