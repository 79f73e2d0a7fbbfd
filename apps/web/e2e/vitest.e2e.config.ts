import { defineConfig } from "vitest/config";

// One browser, one API and one web server for the whole suite; steps run in order in one file.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
