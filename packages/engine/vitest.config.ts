import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["weft-source"] },
  test: { include: ["src/**/*.test.ts"] },
});
