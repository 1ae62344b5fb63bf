// The nine tools, in the order tools/list presents them.
import type { ToolSpec } from "../tool.js";
import { getRequirementTool } from "./get-requirement.js";
import { getTestTool } from "./get-test.js";
import { leastTestedRequirementsTool } from "./least-tested-requirements.js";
import { listAllIdsTool } from "./list-all-ids.js";
import { listAllTagsTool } from "./list-all-tags.js";
import { listReferencesToTool } from "./list-references-to.js";
import { searchRequirementsTool } from "./search-requirements.js";
import { searchTestsTool } from "./search-tests.js";
import { testPlanCoverageTool } from "./test-plan-coverage.js";

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
];
