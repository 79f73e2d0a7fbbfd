import type { CostReservation, RunCost } from "../../../providers/model-cost.js";

/**
 * The calling run's budget as one workflow-tool call hands it to the run it starts: every priced call
 * of that run reserves from the caller's budget in the name of the calling node (the node that stops
 * the caller when one is refused), and what those calls cost is tallied for the calling node run.
 */
export class WorkflowToolCost implements RunCost {
  #spentUsd: number | null = null;

  constructor(
    private readonly run: RunCost,
    private readonly nodeId: string,
  ) {}

  get limitUsd(): number | null {
    return this.run.limitUsd;
  }

  /** What the called run's priced calls cost so far; null while none was priced. */
  get spentUsd(): number | null {
    return this.#spentUsd;
  }

  reserve(estimateUsd: number): CostReservation {
    const held = this.run.reserve(estimateUsd, this.nodeId);
    return {
      settle: (actualUsd) => {
        held.settle(actualUsd);
        // No usage reported: the call's cost is unknown (the called run warns COST_UNKNOWN), as in callModel.
        if (actualUsd !== null) this.#spentUsd = (this.#spentUsd ?? 0) + actualUsd;
      },
      release: () => held.release(),
    };
  }

  firstUnpriced(model: string): boolean {
    return this.run.firstUnpriced(model);
  }

  restore(spentUsd: number): void {
    this.run.restore(spentUsd);
    this.#spentUsd = (this.#spentUsd ?? 0) + spentUsd;
  }
}
