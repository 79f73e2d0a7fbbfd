import { withRetry } from "./api-retry.js";
import * as ops from "./experiment-operations.js";
import type { GraphqlHttpClient } from "./graphql-http.client.js";

/** Rows that failed a scorer, kept for the report (the count covers them all). */
export const MAX_FAILING_ROWS = 1_000;
/**
 * Failing rows read in full per request. A row's output may be a MiB (WEFT_MAX_NODE_OUTPUT_BYTES) and its
 * expected value 256 KiB, so four stay well below the client's 16 MiB reply limit even when escaped.
 */
const FULL_ROWS_PER_REQUEST = 4;

export interface FailingRows {
  /** In dataset order, at most MAX_FAILING_ROWS. */
  rows: ops.ResultRow[];
  count: number;
}

/** A failing row found in the verdicts: the cursor before it (null: the first row) and its own. */
interface Found {
  after: string | null;
  cursor: string;
}

/**
 * The rows that did not complete or failed a scorer: every row's verdict first, without outputs, then
 * only the failing rows that are reported, in full, a few contiguous ones per request.
 */
export async function readFailingRows(client: GraphqlHttpClient, id: string): Promise<FailingRows> {
  const { found, count } = await findFailing(client, id);
  const rows: ops.ResultRow[] = [];
  for (const group of contiguousGroups(found)) {
    const page = await withRetry(() => client.request<ops.ResultsPage>(ops.EXPERIMENT_RESULTS, { id, after: group[0]!.after, first: group.length }));
    rows.push(...(page.experiment?.results.edges.map((edge) => edge.node) ?? []));
  }
  return { rows, count };
}

async function findFailing(client: GraphqlHttpClient, id: string): Promise<{ found: Found[]; count: number }> {
  const found: Found[] = [];
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const page: ops.VerdictsPage = await withRetry(() => client.request<ops.VerdictsPage>(ops.EXPERIMENT_VERDICTS, { id, after }));
    const results = page.experiment?.results;
    if (!results) return { found, count };
    let previous = after;
    for (const { cursor, node } of results.edges) {
      if (!node.completed || !node.scores.every((score) => score.pass)) {
        count += 1;
        if (found.length < MAX_FAILING_ROWS) found.push({ after: previous, cursor });
      }
      previous = cursor;
    }
    if (!results.pageInfo.hasNextPage) return { found, count };
    after = results.pageInfo.endCursor;
  }
}

/** Runs of rows next to each other (each one's `after` is the one before's cursor), cut at FULL_ROWS_PER_REQUEST. */
export function contiguousGroups<T extends Found>(found: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const row of found) {
    const last = groups.at(-1);
    if (last && last.length < FULL_ROWS_PER_REQUEST && last.at(-1)!.cursor === row.after) last.push(row);
    else groups.push([row]);
  }
  return groups;
}
