// The tools, in the order tools/list presents them: speky's nine, then ours.
import type { ToolSpec } from "../tool.js";
import { findCodeReferencesTool } from "./find-code-references.js";
import { getRequirementTool } from "./get-requirement.js";
import { getTestTool } from "./get-test.js";
import { listAllIdsTool } from "./list-all-ids.js";
import { listAllTagsTool } from "./list-all-tags.js";
import { listReferencesToTool } from "./list-references-to.js";
import { searchRequirementsTool } from "./search-requirements.js";
import { searchTestsTool } from "./search-tests.js";
import { searchTextTool } from "./search-text.js";
import { changesSinceTool } from "./status/changes-since.js";
import { getStatusTool } from "./status/get-status.js";
import { leastTestedRequirementsTool } from "./status/least-tested-requirements.js";
import { listProblemsTool } from "./status/list-problems.js";
import { testPlanCoverageTool } from "./status/test-plan-coverage.js";

export const TOOLS: readonly ToolSpec[] = [
  getRequirementTool,
  getTestTool,
  searchRequirementsTool,
  searchTestsTool,
  listReferencesToTool,
  testPlanCoverageTool,
  leastTestedRequirementsTool,
  listAllTagsTool,
  listAllIdsTool,
  searchTextTool,
  findCodeReferencesTool,
  listProblemsTool,
  getStatusTool,
  changesSinceTool,
];
