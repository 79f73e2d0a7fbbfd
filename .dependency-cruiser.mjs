/**
 * The dependency rules `./weft test` enforces (`pnpm run check:dependencies`, dependency-cruiser).
 * Dependencies flow one way: engine ← providers ← api ← web; inside the API, modules meet only through
 * each other's index.ts, and nothing imports in a circle (type-only imports count).
 */
const API = "^apps/api/src/";
const ENGINE = "^packages/engine/src/";
const NODE_TYPES = `${ENGINE}node-types/`;

export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle: split the shared part out, or let one side depend on the other only.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-is-pure",
      comment: "The engine depends on no other workspace package (it is at the bottom: engine ← providers ← api ← web).",
      severity: "error",
      from: { path: "^packages/engine/" },
      to: { path: "^(apps|packages/providers|bench)/" },
      // (by relative path here; by package name the package.json files already forbid it)
    },
    {
      name: "engine-node-type-folders-apart",
      comment: "A node type's folder reaches no other type's folder: what two types share goes to node-types/common/ (docs/adding-a-node-type.md).",
      severity: "error",
      from: { path: `${NODE_TYPES}([^/]+)/` },
      to: { path: NODE_TYPES, pathNot: [`${NODE_TYPES}$1/`, `${NODE_TYPES}common/`, `${NODE_TYPES}[^/]+\\.ts$`] },
    },
    {
      name: "engine-node-types-common-is-shared",
      comment: "node-types/common serves every node type and knows none of them (nor the list that assembles them).",
      severity: "error",
      from: { path: `${NODE_TYPES}common/` },
      to: { path: NODE_TYPES, pathNot: `${NODE_TYPES}common/` },
    },
    {
      name: "engine-registry-contract-imports-no-executor",
      comment: "registry/ is the node-type contract (definition, registry class, catalogue): it imports no executor, no node type, nor anything that runs, checks or reads documents.",
      severity: "error",
      from: { path: `${ENGINE}registry/` },
      to: { path: `${ENGINE}(node-types|execute|rules|document|threads|testing)/` },
    },
    {
      name: "engine-registry-always-passed",
      comment: "The engine's checkers, runner and readers take the registry as an argument; only the entry point, the test kit and tests know the list of built-in types.",
      severity: "error",
      from: { path: ENGINE, pathNot: [NODE_TYPES, `${ENGINE}testing/`, `${ENGINE}index\\.ts$`, "\\.test\\.ts$"] },
      to: { path: NODE_TYPES },
    },
    {
      name: "providers-below-apps",
      severity: "error",
      from: { path: "^packages/providers/" },
      to: { path: "^(apps|bench)/" },
    },
    {
      name: "test-services-stand-alone",
      comment: "The throw-away PostgreSQL and Redis serve the API's tests, the browser tests and the benchmarks: they depend on none of them.",
      severity: "error",
      from: { path: "^packages/test-services/" },
      to: { path: "^(apps|bench|packages/(?!test-services/))" },
    },
    {
      name: "apps-stay-apart",
      comment: "The web sees the API through schema.graphql and generated types, never its code; the CLI and the API share only packages.",
      severity: "error",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    {
      name: "benchmarks-use-public-entry-points",
      comment: "Benchmarks import packages by name (their public surface), never another folder's files.",
      severity: "error",
      from: { path: "^bench/" },
      to: { path: "^(apps|packages)/", dependencyTypes: ["local"] },
    },
    {
      name: "api-module-doorway",
      comment: "A module reaches another module only through its index.ts (modules/common is the shared kit).",
      severity: "error",
      from: { path: `${API}modules/([^/]+)/` },
      to: { path: `${API}modules/`, pathNot: [`${API}modules/$1/`, `${API}modules/[^/]+/index\\.ts$`, `${API}modules/common/`] },
    },
    {
      name: "api-outside-modules-use-doorways",
      comment: "The server, the schema and the tests' helpers reach a module only through its index.ts.",
      severity: "error",
      from: { path: API, pathNot: `${API}modules/` },
      to: { path: `${API}modules/`, pathNot: [`${API}modules/[^/]+/index\\.ts$`, `${API}modules/common/`] },
    },
    {
      name: "api-common-is-shared",
      comment: "modules/common serves every module and depends on none of them.",
      severity: "error",
      from: { path: `${API}modules/common/` },
      to: { path: `${API}modules/`, pathNot: `${API}modules/common/` },
    },
    {
      name: "api-modules-below-the-server",
      comment: "Feature modules know the GraphQL context type, not the server that builds it (app/, the rest of graphql/).",
      severity: "error",
      from: { path: `${API}modules/`, pathNot: "\\.test\\.ts$" },
      to: { path: [`${API}app/`, `${API}graphql/`], pathNot: `${API}graphql/context\\.ts$` },
    },
    {
      name: "api-graphql-below-app",
      comment: "graphql/ (Apollo, the WebSocket server) is wired by app/ and never reaches back into it.",
      severity: "error",
      from: { path: `${API}graphql/` },
      to: { path: `${API}app/` },
    },
    {
      name: "api-env-first",
      comment: "env.ts reads the environment for everyone else and depends on nothing of the API.",
      severity: "error",
      from: { path: `${API}env\\.ts$` },
      to: { path: API, pathNot: `${API}env\\.ts$` },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: ["node_modules", "/dist/"] },
    exclude: { path: ["/generated/", "/gql/", "\\.next/"] },
    // Only the web uses a path alias (@/ → apps/web/src); its tsconfig serves every folder.
    tsConfig: { fileName: "apps/web/tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["weft-source", "import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
