#!/usr/bin/env bash
# Drive the built speky-mcp through the MCP Inspector CLI by hand, on the MCP fixture or on
# the manifest given as $1. The same calls run in test/mcp-inspector.test.ts.
#   npm run build && scripts/mcp-inspector.sh [MANIFEST]
set -euo pipefail
cd "$(dirname "$0")/.."
manifest="${1:-fixtures/mcp/speky.yaml}"
inspect() { npx --no-install inspector --cli node dist/commands/mcp.js "$manifest" --quiet "$@"; }

inspect --method tools/list --strict | head -n 20
inspect --method tools/call --tool-name list_all_ids
inspect --method tools/call --tool-name get_requirement --tool-arg id=REQ-ALL
inspect --method tools/call --tool-name test_plan_coverage
inspect --method resources/templates/list
# A domain error: the Inspector exits 5 on isError results.
inspect --method tools/call --tool-name get_requirement --tool-arg id=NOPE || echo "(exit $? on isError, as expected)"
