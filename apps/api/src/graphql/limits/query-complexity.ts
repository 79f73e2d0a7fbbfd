import { createRequire } from "node:module";
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type DocumentNode, type GraphQLNamedType, type GraphQLSchema } from "graphql";
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

/**
 * Introspection costs what it reads: `__schema` the whole schema (one unit per type, field, argument,
 * input field and enum value: about 900 for this API, so the 1,000 aliases of `__schema` once answered
 * with 37.6 MB are refused before anything runs), `__type` its largest type. What the selection asks
 * for below them does not change the estimate; the response budget bounds the answer itself.
 */
function introspectionEstimator(weights: IntrospectionWeights): ComplexityEstimator {
  return ({ field }) => {
    if (field.name === "__schema") return 1 + weights.schema;
    if (field.name === "__type") return 1 + weights.largestType;
    return undefined;
  };
}

interface IntrospectionWeights {
  schema: number;
  largestType: number;
}

const weightsBySchema = new WeakMap<GraphQLSchema, IntrospectionWeights>();

function weightsOf(schema: GraphQLSchema): IntrospectionWeights {
  let weights = weightsBySchema.get(schema);
  if (!weights) {
    weights = introspectionWeights(schema);
    weightsBySchema.set(schema, weights);
  }
  return weights;
}

function introspectionWeights(schema: GraphQLSchema): IntrospectionWeights {
  let total = schema.getDirectives().length;
  let largestType = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    const weight = typeWeight(type);
    total += weight;
    largestType = Math.max(largestType, weight);
  }
  return { schema: total, largestType };
}

function typeWeight(type: GraphQLNamedType): number {
  if (isObjectType(type) || isInterfaceType(type)) {
    return Object.values(type.getFields()).reduce((sum, field) => sum + 1 + field.args.length, 1);
  }
  if (isInputObjectType(type)) return 1 + Object.keys(type.getFields()).length;
  if (isEnumType(type)) return 1 + type.getValues().length;
  return 1;
}

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
    estimators: [introspectionEstimator(weightsOf(schema)), fieldExtensionsEstimator(), paginationEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

