import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["weft-source"] },
  // Each case starts the command line as a child process, which is slow on a busy machine.
  test: { include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
