import type { CallerCost, CostReservation } from "../../../providers/model-cost.js";
import type { PartialNodeDetails } from "../../../registry/node-failure.js";

/**
 * The calling run's budget as one workflow-tool call hands it to the run it starts: every priced call
 * of that run reserves from the caller's budget in the name of the calling node (the node that stops
 * the caller when one is refused), and what those calls cost is added to the calling node run's details
 * as each one answers — so a call that fails, or is stopped, after spending still records it.
 */
export class WorkflowToolCost implements CallerCost {
  constructor(
    private readonly run: CallerCost,
    private readonly nodeId: string,
    private readonly details: PartialNodeDetails,
  ) {}

  reserve(estimateUsd: number): CostReservation {
    const held = this.run.reserve(estimateUsd, this.nodeId);
    return {
      settle: (actualUsd) => {
        held.settle(actualUsd);
        // No usage reported: the call's cost is unknown (the called run warns COST_UNKNOWN), as in callModel.
        if (actualUsd !== null) this.#spend(actualUsd);
      },
      release: () => held.release(),
    };
  }

  #spend(usd: number): void {
    this.details.costUsd = (this.details.costUsd ?? 0) + usd;
  }
}
