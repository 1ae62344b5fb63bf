// The MCP server over a model. It takes a getter, not a model: the model is swapped whole on
// reload, and every request must read the one current at that moment.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Model } from "../model/model.js";
import { VERSION } from "../version.js";
import { registerResources } from "./resources.js";
import { registerTool } from "./tool.js";
import { answerToolList } from "./tool-list.js";
import { TOOLS } from "./tools/index.js";

export const SERVER_NAME = "speky-mcp";

const INSTRUCTIONS =
  "Read-only access to the project's specification: requirements (what the system must do), tests " +
  "(test plans that validate them) and the code tagged with their IDs. Start with list_all_ids or " +
  "search_requirements, then get_requirement / get_test for details.";

// speky:speky-ts#MCP-SERVER
export function createServer(getModel: () => Model): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    { capabilities: { tools: {}, resources: {}, completions: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of TOOLS) registerTool(server, getModel, tool);
  answerToolList(server, TOOLS);
  registerResources(server, getModel);
  return server;
}
