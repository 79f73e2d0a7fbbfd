import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    conditions: ["weft-source"],
    // graphql 16 ships CJS (main) and ESM (module) builds; Node (and type-graphql, Apollo) load the CJS one,
    // Vite would pick the ESM one for our sources: two realms, "Cannot use GraphQLObjectType from another
    // module". Pin our imports to the build Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["src/**/*.test.ts"],
    setupFiles: ["./src/testing/vitest.setup.ts"],
    // Integration tests start a real server (and PostgreSQL) on machines shared by several builds:
    // a generous ceiling, so a slow moment is not a failure; a test that hangs still fails.
    testTimeout: 30_000,
    // Hooks start databases too (a fresh PGlite takes seconds on a busy machine): the same kind of ceiling.
    hookTimeout: 60_000,
  },
});
