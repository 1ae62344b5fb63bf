// Requirements and tests as resources (speky://requirement/{id}, speky://test/{id}): the same
// JSON as get_requirement / get_test, listable, with ID completion. An unknown ID is the MCP
// "resource not found" JSON-RPC error, -32002.
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Model } from "../model/model.js";
import type { Item } from "../spec/types.js";
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

export function resourceUri(kind: string, id: string): string {
  return `speky://${kind}/${encodeURIComponent(id)}`;
}

function decode(raw: string | string[] | undefined): string {
  try {
    return decodeURIComponent(String(raw ?? ""));
  } catch {
    return String(raw);
  }
}

// Case-insensitive prefix match; the SDK keeps the first 100 and reports the total.
function completions(ids: readonly string[], typed: string): string[] {
  const prefix = typed.toLowerCase();
  return ids.filter((id) => id.toLowerCase().startsWith(prefix));
}

function listed(kind: Kind, item: Item) {
  return {
    uri: resourceUri(kind.name, item.id),
    name: item.id,
    // Set on every entry, or the template's own title would show for items without a short.
    title: item.short || item.id,
    mimeType: "application/json",
  };
}

function read(kind: Kind, model: Model, uri: URL, id: string, meta?: Record<string, string>): ReadResourceResult {
  try {
    const text = JSON.stringify(kind.details(model, id));
    return { contents: [{ uri: uri.href, mimeType: "application/json", text }], ...(meta ? { _meta: meta } : {}) };
  } catch (error) {
    if (error instanceof ToolError) throw new ResourceNotFound(error.message, { uri: uri.href });
    throw error;
  }
}

/** The model a read answers from, once the first scan is done (or waited for long enough), with a `_meta` note if partial. */
export type ReadModel = () => Promise<{ model: Model; meta?: Record<string, string> }>;

export function registerResources(
  server: McpServer,
  getModel: () => Model,
  readModel: ReadModel = async () => ({ model: getModel() }),
): void {
  for (const kind of KINDS) {
    const template = new ResourceTemplate(`speky://${kind.name}/{id}`, {
      list: () => {
        const model = getModel();
        return { resources: kind.ids(model).map((id) => listed(kind, model.byId.get(id)!)) };
      },
      complete: { id: (value) => completions(kind.ids(getModel()), value) },
    });
    server.registerResource(
      kind.name,
      template,
      {
        title: kind.name === "requirement" ? "Requirement" : "Test",
        description: `A ${kind.name} by ID, as JSON: the same content as get_${kind.name}`,
        mimeType: "application/json",
      },
      async (uri, variables) => {
        const { model, meta } = await readModel();
        return read(kind, model, uri, decode(variables.id), meta);
      },
    );
  }
}
