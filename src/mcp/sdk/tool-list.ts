// tools/list, answered by us rather than by McpServer (departure 4 of pin.ts): a domain error
// carries structuredContent {error}, and the SDK's own client (1.32, typescript-sdk issue
// #1943) checks it against the outputSchema even when isError is set, so that an agent would
// see a schema failure instead of "Requirement X not found". Each published outputSchema
// therefore reads "the result, or {error, did_you_mean?}". McpServer itself is given no
// outputSchema (tool.ts), so it checks no result: the e2e suites check every answer against
// the published schema instead, through the SDK's client.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { inputShape, outputShape, READ_ONLY, type ToolSpec } from "../tool.js";

type JsonSchema = Record<string, unknown>;

const ERROR_PROPERTIES = {
  error: { type: "string", description: "Present, with isError, when the call failed: what was not found" },
  did_you_mean: { type: "string", description: "With error, when one is close: the tag, category, ID or file likely meant" },
};

export function resultOrError(schema: JsonSchema): JsonSchema {
  const { required, properties, ...rest } = schema;
  return {
    ...rest,
    properties: { ...(properties as JsonSchema), ...ERROR_PROPERTIES },
    anyOf: [{ required: required ?? [] }, { required: ["error"] }],
  };
}

export function describeTool(spec: ToolSpec): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: toJsonSchemaCompat(z.object(inputShape(spec)), { strictUnions: true, pipeStrategy: "input" }) as Tool["inputSchema"],
    outputSchema: resultOrError(
      toJsonSchemaCompat(z.object(outputShape(spec)), { strictUnions: true, pipeStrategy: "output" }),
    ) as Tool["outputSchema"],
    annotations: { ...READ_ONLY },
  };
}

export function answerToolList(server: McpServer, tools: readonly ToolSpec[]): void {
  const listed = tools.map(describeTool);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
}
