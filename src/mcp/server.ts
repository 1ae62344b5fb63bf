// The MCP server over a model. It takes a getter, not a model: the model is swapped whole on
// reload, and every request must read the one current at that moment.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { LiveState } from "../live/live-model.js";
import type { Model } from "../model/model.js";
import { DECLARED_CAPABILITIES, INSTRUCTIONS, SERVER_INFO, SERVER_NAME } from "./identity.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { awaitScan, PARTIAL_META_KEY, partialNote, scanWaitMs } from "./scan-wait.js";
import { fixedState, registerTool } from "./tool.js";
import { answerToolList } from "./tool-list.js";
import { TOOLS } from "./tools/index.js";

export { SERVER_NAME };

/**
 * `getState` gives the model with its load status (LiveModel.snapshot); without it the model
 * is served as it is. Each call reads it once, so one call never mixes two models.
 */
// speky:speky-ts#MCP-SERVER
export function createServer(getModel: () => Model, getState?: () => LiveState): McpServer {
  const startedAt = new Date();
  const state = getState ?? (() => fixedState(getModel(), startedAt));
  const server = new McpServer({ ...SERVER_INFO }, { capabilities: structuredClone(DECLARED_CAPABILITIES), instructions: INSTRUCTIONS });
  for (const tool of TOOLS) registerTool(server, state, tool);
  answerToolList(server, TOOLS);
  // A resource holds what get_requirement / get_test answer: it waits for the first scan as they do.
  registerResources(server, getModel, async () => {
    const ready = await awaitScan(state, {}, scanWaitMs());
    const note = partialNote(ready);
    return { model: ready.model, ...(note === null ? {} : { meta: { [PARTIAL_META_KEY]: note } }) };
  });
  registerPrompts(server, getModel);
  return server;
}
