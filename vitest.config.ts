import { defineConfig } from "vitest/config";

// Suites spawn the built server and scan real trees: generous timeouts, no timing asserts.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
