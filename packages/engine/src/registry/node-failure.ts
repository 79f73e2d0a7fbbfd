import type { NodeRunDetails } from "../events/run-event.js";
import { isAbortError, WeftError } from "../model/errors.js";

export type PartialNodeDetails = Omit<NodeRunDetails, "startedAt" | "finishedAt">;

/**
 * A node's failure together with what it had recorded so far (rendered prompt, raw reply, usage…), so
 * the NODE_FAILED event and the persisted node run show how far the node got.
 */
export class NodeFailure extends WeftError {
  readonly partial: PartialNodeDetails;

  constructor(cause: WeftError, partial: PartialNodeDetails) {
    super(cause.code, cause.message, { audience: cause.audience, cause, details: cause.details });
    this.name = "NodeFailure";
    this.partial = partial;
  }

  /** Wraps an executor's error; aborts pass through untouched, since cancellation is the runner's. */
  static wrap(error: unknown, partial: PartialNodeDetails): unknown {
    if (isAbortError(error) || error instanceof NodeFailure) return error;
    const cause =
      error instanceof WeftError
        ? error
        : new WeftError("INTERNAL_ERROR", error instanceof Error ? error.message : String(error), {
            audience: "internal",
            cause: error,
          });
    return new NodeFailure(cause, { ...partial });
  }
}

export function emptyNodeDetails(inputs: string[]): PartialNodeDetails {
  return {
    inputs,
    renderedPrompt: null,
    context: [],
    store: null,
    rawReply: null,
    provider: null,
    model: null,
    usage: null,
    retries: 0,
  };
}
