// What the server says of itself in its `initialize` answer, in a module without the MCP SDK:
// main.ts answers a plain `initialize` before loading the SDK (sdk/initialize.ts), and the
// SDK's server is built from the same values (server.ts). test/mcp/mcp-early-initialize.test.ts
// checks that both answers are the same bytes.
import { VERSION } from "../version.js";

export const SERVER_NAME = "speky-mcp";

export const SERVER_INFO = { name: SERVER_NAME, version: VERSION };

export const INSTRUCTIONS =
  "Read-only access to the project's specification: requirements (what the system must do), tests " +
  "(test plans that validate them) and the code tagged with their IDs. Start with list_all_ids or " +
  "search_requirements (or search_text for free text), then get_requirement / get_test for details; " +
  "find_code_references goes from a place in the code to what it implements. The model follows the files " +
  "as they are edited; get_status tells when it was loaded and whether the specs currently fail to load; " +
  "changes_since tells what the working tree changed in the spec since a git revision. " +
  "get_requirement and get_test end with resource links to the item and the items it names (speky:// resources). " +
  "The prompts give the workflows: start-specification, write-test-plans, trace-to-ids, review-change.";

/** The capabilities given to McpServer's constructor. */
export const DECLARED_CAPABILITIES = { tools: {}, resources: {}, completions: {}, prompts: {} };
