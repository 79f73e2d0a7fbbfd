/**
 * The neighbour lists of every pipeline type (SPEC-V2 §1): any type but `output` as a pre-node, any type
 * as a post-node (the target's own list decides). The registry resolves them into concrete lists.
 */
export const PIPELINE_NEIGHBOURS = {
  accepts: [],
  acceptsAnyExcept: ["output"],
  feeds: [],
  feedsAnyExcept: [],
} as const satisfies { accepts: readonly string[]; acceptsAnyExcept: readonly string[]; feeds: readonly string[]; feedsAnyExcept: readonly string[] };
