import os from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The suites `.ci/run` also runs on Node 22 and 24 (SPEKY_SUITES=fast): every program's surface
 * (command line, MCP, LSP, loader, scanner on fixtures, report) in about a minute; the long
 * hardening, fuzzing, install and real-code suites run on Node 20 only.
 */
const FAST = [
  "test/cli/node-versions.test.ts",
  "test/cli/check.test.ts",
  "test/cli/cli-help.test.ts",
  "test/scan/scan-command.test.ts",
  "test/scan/scan-fixtures.test.ts",
  "test/scan/scan-grammars.test.ts",
  "test/spec/spec-load.test.ts",
  "test/spec/spec-toml.test.ts",
  "test/spec/spec-yaml-fast.test.ts",
  "test/mcp/mcp-tools.test.ts",
  "test/mcp/mcp-protocol.test.ts",
  "test/mcp/mcp-resources.test.ts",
  "test/mcp/mcp-prompts.test.ts",
  "test/mcp/mcp-early-initialize.test.ts",
  "test/lsp/lsp.test.ts",
  "test/lsp/lsp-editing.test.ts",
  "test/report/report.test.ts",
  "test/pipeline/walk-safe-read.test.ts",
  "test/pipeline/baseline-wasm.test.ts",
  "test/pipeline/v8-flags.test.ts",
];

// Suites spawn the built server and scan real trees: generous timeouts, no timing asserts.
// Most of a suite's time is spent waiting on the processes it drives (servers, npm, git, the
// test runners, Chromium), so four files run at once even on two cores (vitest's default is
// one fewer worker than cores): on 2 cores the whole run took 535 s with four and 649 s with
// three (2026-12-04, 100 files); an earlier, smaller suite 5.5 min with three, 10.1 with one.
export default defineConfig({
  test: {
    maxWorkers: Math.max(4, os.availableParallelism() - 1),
    include: process.env.SPEKY_SUITES === "fast" ? FAST : ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
