import path from "node:path";
import { defineConfig } from "vitest/config";

// One browser, one API and one web server for the whole suite; steps run in order in one file.
export default defineConfig({
  // The web app's own modules (the live run stream) are imported as the browser runs them.
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "../src") } },
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
