// The MCP server over a model. It takes a getter, not a model: the model is swapped whole on
// reload, and every request must read the one current at that moment.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { LiveState } from "../live/state.js";
import type { Model } from "../model/model.js";
import { DECLARED_CAPABILITIES, INSTRUCTIONS, SERVER_INFO, SERVER_NAME } from "./identity.js";
import { PROMPTS, registerPrompts } from "./prompts.js";
import { RESOURCE_TEMPLATES, registerResources } from "./resources.js";
import { awaitScan, PARTIAL_META_KEY, partialNote, scanWaitMs } from "./scan-wait.js";
import { McpSession } from "./sdk/session.js";
import { answerToolList } from "./sdk/tool-list.js";
import { fixedState, registerTool, type ToolSpec } from "./tool.js";
import { TOOLS } from "./tools/index.js";
import { verificationStatusTool } from "./tools/status/verification-status.js";

export { SERVER_NAME };

export interface ServerOptions {
  /** Test results are given: verification_status is served, and get_test/get_requirement publish `verification`. */
  verification?: boolean;
}

// speky:speky-ts#RESULTS-MCP
/** Without results, the tools and their schemas are exactly what they were before results existed. */
function servedTools(verification: boolean): readonly ToolSpec[] {
  if (verification) return [...TOOLS, verificationStatusTool];
  return TOOLS.map((tool) => {
    if (!("verification" in tool.output)) return tool;
    const { verification: _, ...output } = tool.output;
    return { ...tool, output };
  });
}

/** The names of the tools each server serves: the session refuses any other. */
const SERVED_TOOLS = new WeakMap<McpServer, readonly string[]>();

/**
 * `getState` gives the model with its load status (LiveModel.snapshot); without it the model
 * is served as it is. Each call reads it once, so one call never mixes two models.
 */
// speky:speky-ts#MCP-SERVER
export function createServer(getModel: () => Model, getState?: () => LiveState, options: ServerOptions = {}): McpServer {
  const startedAt = new Date();
  const tools = servedTools(options.verification ?? false);
  const state = getState ?? (() => fixedState(getModel(), startedAt));
  const server = new McpServer({ ...SERVER_INFO }, { capabilities: structuredClone(DECLARED_CAPABILITIES), instructions: INSTRUCTIONS });
  for (const tool of tools) registerTool(server, state, tool);
  answerToolList(server, tools);
  SERVED_TOOLS.set(
    server,
    tools.map((t) => t.name),
  );
  // A resource holds what get_requirement / get_test answer: it waits for the first scan as they do.
  registerResources(server, getModel, async () => {
    const ready = await awaitScan(state, {}, scanWaitMs());
    const note = partialNote(ready);
    return { model: ready.model, ...(note === null ? {} : { meta: { [PARTIAL_META_KEY]: note } }) };
  });
  registerPrompts(server, getModel);
  return server;
}

/**
 * Serves `server` on `transport` through the lifecycle rules of sdk/session.ts; `earlyRequest`
 * is the `initialize` the transport answered before the SDK was loaded, if it did.
 */
export function connectSession(
  server: McpServer,
  transport: Transport,
  earlyRequest?: unknown,
  warn?: (message: string) => void,
): Promise<void> {
  const tools = SERVED_TOOLS.get(server) ?? [];
  const completable = { prompts: PROMPTS.map((p) => p.name), templates: RESOURCE_TEMPLATES };
  const session = new McpSession(transport, { tools, completable, earlyRequest, ...(warn ? { warn } : {}) });
  return server.connect(session);
}
