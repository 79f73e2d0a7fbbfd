import type { ComplexityEstimatorArgs } from "graphql-query-complexity";

/**
 * The query cost model's weights, attached to fields with type-graphql's `complexity` option (read by
 * graphql-query-complexity's field-extensions estimator; see graphql/limits/query-complexity.ts). A
 * plain field costs 1. The weights are estimates made before anything runs: the response-size limit
 * (graphql/limits/response-budget.ts) is what bounds the actual bytes.
 */

/** A field that may hold long text (node content, prompts, outputs, event payloads): up to 200,000 characters. */
export const TEXT_COST = 10;

/** Items assumed in a list that has no page argument (a workflow's nodes and edges, a run's node runs). */
export const ASSUMED_LIST_LENGTH = 20;

/** A whole workflow as one value (exportWorkflow, a run's snapshot): its nodes with their texts. */
export const DOCUMENT_COST = ASSUMED_LIST_LENGTH * 3 * TEXT_COST;

/** Work beyond the fields returned: embedding a query and searching a vector store. */
export const SEARCH_COST = 50;

/** Occurrences (aliases) of one expensive field allowed in one operation. */
export const MAX_ALIASES_PER_EXPENSIVE_FIELD = 10;

/** Marks a field as expensive: an operation may name it at most MAX_ALIASES_PER_EXPENSIVE_FIELD times. */
export const EXPENSIVE = { expensive: true } as const;

/** A list without a page argument: its items are counted as ASSUMED_LIST_LENGTH. */
export function unboundedListCost({ childComplexity }: ComplexityEstimatorArgs): number {
  return 1 + ASSUMED_LIST_LENGTH * Math.max(childComplexity, 1);
}

/** A list whose length is given by an argument (`events(limit)`), at most `max` items. */
export function listCostByArgument(name: string, fallback: number, max: number) {
  return ({ args, childComplexity }: ComplexityEstimatorArgs): number => {
    const asked = args[name];
    const length = typeof asked === "number" && Number.isFinite(asked) ? Math.min(Math.max(asked, 0), max) : fallback;
    return 1 + length * Math.max(childComplexity, 1);
  };
}
