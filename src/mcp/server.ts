// The MCP server over a model. It takes a getter, not a model: the model is swapped whole on
// reload, and every request must read the one current at that moment.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { LiveState } from "../live/live-model.js";
import type { Model } from "../model/model.js";
import { VERSION } from "../version.js";
import { registerResources } from "./resources.js";
import { awaitScan, PARTIAL_META_KEY, partialNote, scanWaitMs } from "./scan-wait.js";
import { fixedState, registerTool } from "./tool.js";
import { answerToolList } from "./tool-list.js";
import { TOOLS } from "./tools/index.js";

export const SERVER_NAME = "speky-mcp";

const INSTRUCTIONS =
  "Read-only access to the project's specification: requirements (what the system must do), tests " +
  "(test plans that validate them) and the code tagged with their IDs. Start with list_all_ids or " +
  "search_requirements (or search_text for free text), then get_requirement / get_test for details; " +
  "find_code_references goes from a place in the code to what it implements. The model follows the files " +
  "as they are edited; get_status tells when it was loaded and whether the specs currently fail to load.";

/**
 * `getState` gives the model with its load status (LiveModel.snapshot); without it the model
 * is served as it is. Each call reads it once, so one call never mixes two models.
 */
// speky:speky-ts#MCP-SERVER
export function createServer(getModel: () => Model, getState?: () => LiveState): McpServer {
  const startedAt = new Date();
  const state = getState ?? (() => fixedState(getModel(), startedAt));
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    { capabilities: { tools: {}, resources: {}, completions: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of TOOLS) registerTool(server, state, tool);
  answerToolList(server, TOOLS);
  // A resource holds what get_requirement / get_test answer: it waits for the first scan as they do.
  registerResources(server, getModel, async () => {
    const ready = await awaitScan(state, {}, scanWaitMs());
    const note = partialNote(ready);
    return { model: ready.model, ...(note === null ? {} : { meta: { [PARTIAL_META_KEY]: note } }) };
  });
  return server;
}
