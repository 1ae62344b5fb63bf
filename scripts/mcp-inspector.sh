#!/usr/bin/env bash
# Drive the built speky-mcp through the MCP Inspector CLI by hand, on the MCP fixture or on
# the manifest given as $1. The same calls run in test/mcp/mcp-inspector.test.ts; the README's
# client configurations are run through it by test/mcp/mcp-client-config.test.ts.
#   npm run build && scripts/mcp-inspector.sh [MANIFEST]
set -euo pipefail
cd "$(dirname "$0")/.."
manifest="${1:-fixtures/mcp/speky.yaml}"
# The devDependency's binary (0.15.0: no --strict; test/mcp/mcp-inspector.test.ts checks the schemas with Ajv).
inspect() { npx --no -- mcp-inspector --cli node dist/commands/mcp.js "$manifest" --quiet "$@"; }

inspect --method tools/list | head -n 20
inspect --method tools/call --tool-name list_all_ids
inspect --method tools/call --tool-name get_requirement --tool-arg id=REQ-ALL
inspect --method tools/call --tool-name test_plan_coverage
inspect --method resources/templates/list
# A domain error: an isError result with {error}.
inspect --method tools/call --tool-name get_requirement --tool-arg id=NOPE
