/**
 * graphql-codegen configuration: typed operations from the committed schema (apps/api/schema.graphql),
 * with the client preset, for two targets:
 *   - the API's own integration tests: `graphql(...)` in apps/api/src/**\/*.int.test.ts → apps/api/src/testing/gql/
 *   - the admin UI: `graphql(...)` in apps/web/src → apps/web/src/gql/
 * Run with `pnpm --filter @weft/api run codegen` (apps/api/scripts/codegen.ts reads this file; the
 * codegen CLI itself cannot be installed from this registry mirror, so the runner drives
 * @graphql-codegen/core and the client preset directly). Both outputs are committed.
 */
export interface CodegenTarget {
  /** Globs relative to the repository root. */
  documents: string[];
  ignore: string[];
  /** Output folder relative to the repository root. */
  output: string;
  /** Plugin options for this target only, over the shared `config`. */
  config?: Record<string, unknown>;
}

export interface CodegenConfig {
  schema: string;
  targets: Record<string, CodegenTarget>;
  /** Client-preset options. */
  presetConfig: { fragmentMasking: false | { unmaskFunctionName?: string }; gqlTagName: string };
  /** Plugin options shared by both targets. */
  config: Record<string, unknown>;
}

const config: CodegenConfig = {
  schema: "apps/api/schema.graphql",
  targets: {
    "api-tests": {
      documents: ["apps/api/src/**/*.int.test.ts", "apps/api/src/testing/*.ts"],
      ignore: ["apps/api/src/testing/gql/**"],
      output: "apps/api/src/testing/gql/",
    },
    web: {
      documents: ["apps/web/src/**/*.ts", "apps/web/src/**/*.tsx"],
      ignore: ["apps/web/src/gql/**", "apps/web/src/**/*.test.ts", "apps/web/src/**/*.test.tsx"],
      output: "apps/web/src/gql/",
      // Next's bundler (Turbopack) does not map `./x.js` to `./x.ts`; the web resolves like a bundler.
      config: { importExtension: "" },
    },
  },
  presetConfig: { fragmentMasking: false, gqlTagName: "graphql" },
  config: {
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
  },
};

export default config;
