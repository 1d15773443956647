import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-fast-check.ts", "test/setup-pairs.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "threads",
  },
});
