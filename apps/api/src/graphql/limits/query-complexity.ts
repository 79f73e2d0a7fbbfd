import { createRequire } from "node:module";
import type { DocumentNode, GraphQLSchema } from "graphql";
import type * as QueryComplexityModule from "graphql-query-complexity";
import type { ComplexityEstimator } from "graphql-query-complexity";
import { DEFAULT_PAGE_SIZE } from "../../modules/common/pagination.js";

// The package's ESM build imports "graphql/index.mjs", a second copy of graphql next to the CommonJS one
// every other library here loads ("Cannot use GraphQLObjectType from another module or realm"). Its
// CommonJS build requires plain "graphql", the same instance as ours.
const { fieldExtensionsEstimator, getComplexity, simpleEstimator } = createRequire(import.meta.url)(
  "graphql-query-complexity",
) as typeof QueryComplexityModule;

/**
 * Cost model: every field costs 1; a field taking `first` (a paginated list) multiplies its children's
 * cost by the page size asked for (default page size when absent); fields declare their own weight with
 * type-graphql's `complexity` option (long text, lists without a page argument, whole documents: see
 * modules/common/field-cost.ts). A query for 100 runs with their node runs therefore costs about what
 * it will make the server do.
 */
const paginationEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (!field.args.some((arg) => arg.name === "first")) return undefined;
  const first = typeof args["first"] === "number" && args["first"] > 0 ? args["first"] : DEFAULT_PAGE_SIZE;
  return 1 + first * Math.max(childComplexity, 1);
};

export function operationComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): number {
  return getComplexity({
    schema,
    query: document,
    operationName,
    variables: variables ?? {},
    estimators: [fieldExtensionsEstimator(), paginationEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}
