import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * graphql-codegen: typed operations from the committed schema (apps/api/schema.graphql), with the client
 * preset, for the API's own integration tests and for the admin UI. Run it with
 * `pnpm --filter @weft/api run codegen` (`graphql-codegen --config codegen.ts` from the repository root).
 * Both outputs are committed.
 */

/** Plugin options shared by both outputs. */
const shared = {
  // ESM NodeNext with verbatimModuleSyntax: `.js` in relative imports and `import type`.
  emitLegacyCommonJSImports: false,
  useTypeImports: true,
  enumsAsTypes: true,
  avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
  scalars: {
    DateTimeISO: "string",
    JSON: "unknown",
    JSONObject: "Record<string, unknown>",
  },
};

const presetConfig = { fragmentMasking: false, gqlTagName: "graphql" } as const;

const config: CodegenConfig = {
  schema: "apps/api/schema.graphql",
  // Each written file gets the "Generated … Do not edit." line (the preset writes several files per output).
  hooks: { afterAllFileWrite: ["node scripts/codegen-header.mjs"] },
  generates: {
    "apps/api/src/testing/gql/": {
      preset: "client",
      documents: ["apps/api/src/**/*.int.test.ts", "apps/api/src/testing/*.ts", "!apps/api/src/testing/gql/**"],
      presetConfig,
      config: shared,
    },
    "apps/web/src/gql/": {
      preset: "client",
      documents: ["apps/web/src/**/*.ts", "apps/web/src/**/*.tsx", "!apps/web/src/gql/**", "!apps/web/src/**/*.test.ts", "!apps/web/src/**/*.test.tsx"],
      presetConfig,
      // Next's bundler (Turbopack) does not map `./x.js` to `./x.ts`; the web resolves like a bundler.
      config: { ...shared, importExtension: "" },
    },
  },
};

export default config;
