// What a tool module provides (schemas and a pure `run` over the model), and the one place
// that turns a run into an MCP result: structuredContent plus the same JSON as one compact
// text block, or a domain error as an isError result carrying {error}.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Model } from "../model/model.js";
import { cachedAnswer } from "./answer-cache.js";

/** A domain error (unknown ID, tag or category, wrong kind): answered, never thrown to the protocol. */
export class ToolError extends Error {}

export interface ToolSpec<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  // Method syntax on purpose: tools with different argument types fit one list.
  run(model: Model, args: z.objectOutputType<I, z.ZodTypeAny>): z.objectOutputType<O, z.ZodTypeAny>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(spec: ToolSpec<I, O>): ToolSpec<I, O> {
  return spec;
}

// Every tool only reads the loaded model: clients may call them freely and retry them.
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

export function success(content: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(content) }],
    structuredContent: content as Record<string, unknown>,
  };
}

export function failure(message: string): CallToolResult {
  const content = { error: message };
  return { ...success(content), isError: true };
}

export function runTool(spec: ToolSpec, model: Model, args: Record<string, unknown>): CallToolResult {
  return cachedAnswer(model, `${spec.name}\0${JSON.stringify(args)}`, () => {
    try {
      return success(spec.run(model, args));
    } catch (error) {
      if (error instanceof ToolError) return failure(error.message);
      throw error;
    }
  });
}

// The outputSchema is published by our own tools/list (tool-list.ts), not given to McpServer:
// McpServer would re-check every result with zod, which costs more than the call itself on
// the large answers (tens of milliseconds for 10,000 summaries). The e2e suites check every
// answer against the published schema instead, through the SDK client.
export function registerTool(server: McpServer, getModel: () => Model, spec: ToolSpec): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      annotations: READ_ONLY,
    },
    (args: Record<string, unknown>) => runTool(spec, getModel(), args),
  );
}
