import { defineConfig } from "vitest/config";

export default defineConfig({
  // Each test starts real servers on a machine shared with other builds: a generous ceiling.
  test: { include: ["src/**/*.test.ts"], testTimeout: 120_000 },
});
