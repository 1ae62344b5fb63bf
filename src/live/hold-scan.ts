// A test hook of the servers (speky-mcp's $SPEKY_MCP_HOLD_SCAN, speky lsp's $SPEKY_LSP_HOLD_SCAN):
// the background scan stops after its walk until a named file exists, so that a test sees the
// server mid-scan without depending on timing.
import { existsSync } from "node:fs";

/** The `afterWalk` hook that waits for `gate` to exist; undefined (no hook) without a gate. */
export function holdScanUntil(gate: string | undefined): ((total: number) => Promise<void>) | undefined {
  if (!gate) return undefined;
  return async () => {
    while (!existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
}
