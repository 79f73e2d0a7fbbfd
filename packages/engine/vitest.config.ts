import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["weft-source"] },
  // The 10,000-node cases take about a second alone and several on a loaded shared machine: a ceiling that
  // only a hang reaches (speed is measured by the benchmarks, not asserted here).
  test: { include: ["src/**/*.test.ts"], testTimeout: 30_000 },
});
