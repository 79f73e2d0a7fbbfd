import path from "node:path";
import { defineConfig } from "vitest/config";

// Each file starts its own browser, API and web server; files run one after another, and the steps of a
// file in order.
export default defineConfig({
  // The web app's own modules (the live run stream) are imported as the browser runs them.
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "../src") } },
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.test.ts"],
    globalSetup: ["./harness/clear-artifacts.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
