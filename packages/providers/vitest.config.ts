import { defineConfig } from "vitest/config";

// Tests import workspace packages from their sources; Vite applies `ssr.resolve.conditions` to Node tests.
const conditions = ["weft-source", "node", "import", "module", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { include: ["src/**/*.test.ts"] },
});
