import os from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The suites `.ci/run` also runs on Node 22 and 24 (SPEKY_SUITES=fast): every program's surface
 * (command line, MCP, LSP, loader, scanner on fixtures, report) in about a minute; the long
 * hardening, fuzzing, install and real-code suites run on Node 20 only.
 */
const FAST = [
  "test/node-versions.test.ts",
  "test/check.test.ts",
  "test/cli-help.test.ts",
  "test/scan-command.test.ts",
  "test/scan-fixtures.test.ts",
  "test/scan-grammars.test.ts",
  "test/spec-load.test.ts",
  "test/spec-toml.test.ts",
  "test/spec-yaml-fast.test.ts",
  "test/mcp-tools.test.ts",
  "test/mcp-protocol.test.ts",
  "test/mcp-resources.test.ts",
  "test/mcp-prompts.test.ts",
  "test/mcp-early-initialize.test.ts",
  "test/lsp.test.ts",
  "test/lsp-editing.test.ts",
  "test/report.test.ts",
  "test/walk-safe-read.test.ts",
];

// Suites spawn the built server and scan real trees: generous timeouts, no timing asserts.
// Most of a suite's time is spent waiting on the processes it drives (servers, npm, git, the
// test runners, Chromium), so three files run at once even on two cores (vitest's default is
// one fewer worker than cores): the whole run took 5.5 min instead of 10.1 on 2 cores.
export default defineConfig({
  test: {
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    include: process.env.SPEKY_SUITES === "fast" ? FAST : ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
