/** The weft.workflow/v2 fields of a run event (RunEventFields), null on a server or an event without them. */
export interface PipelineEventFields {
  /** Every NODE_* event: which execution ("", "regen#2", "perQuestion[1]", nested with "/"). */
  invocation: string;
  /** BRANCH_TAKEN: the ports taken and the ports whose edges died. */
  ports: readonly string[] | null;
  skipped: readonly string[] | null;
  /** LOOP_ITERATION, LOOP_EXHAUSTED. */
  loopId: string | null;
  iteration: number | null;
  max: number | null;
  feedback: string | null;
  exit: string | null;
  /** MAP_STARTED: how many items; MAP_ITEM_COMPLETED: which one. */
  items: number | null;
  index: number | null;
  /** CACHE_HIT. */
  similarity: number | null;
  /** NODE_COMPLETED: the output as JSON when it is not a string. */
  value: unknown;
}
