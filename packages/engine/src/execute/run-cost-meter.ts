import { WeftError } from "../model/errors.js";
import type { EventError } from "../events/run-event.js";
import type { CallerCost, CostReservation, RunCost } from "../providers/model-cost.js";

/**
 * What a run has spent on priced model calls (SPEC-V3 §3 cost), and its `limits.maxCostUsd`. A call's
 * estimate is held while it is in flight, so parallel calls cannot together pass the limit; when the
 * call ends, its actual cost (from its usage) replaces the estimate. A resumed run starts from what
 * its earlier attempts recorded. A run started by a workflow tool also reserves every call from its
 * caller's budget (`outer`): the call must fit both limits, and what it costs is spent in both runs.
 */
export class RunCostMeter implements RunCost {
  #spent: number;
  #priced: boolean;
  #held = 0;
  readonly #unpriced = new Set<string>();

  constructor(
    readonly limitUsd: number | null,
    private readonly stop: (error: EventError, nodeId: string) => void,
    restoredUsd: number | null = null,
    private readonly outer: CallerCost | null = null,
  ) {
    this.#spent = restoredUsd ?? 0;
    this.#priced = restoredUsd !== null;
  }

  /** What the run's priced calls cost; null while none was priced. */
  get spentUsd(): number | null {
    return this.#priced ? this.#spent : null;
  }

  firstUnpriced(model: string): boolean {
    if (this.#unpriced.has(model)) return false;
    this.#unpriced.add(model);
    return true;
  }

  reserve(estimateUsd: number, nodeId: string): CostReservation {
    this.#priced = true;
    if (this.limitUsd !== null && this.#spent + this.#held + estimateUsd > this.limitUsd) {
      const message =
        `node "${nodeId}" would make a model call estimated at up to $${formatUsd(estimateUsd)}, taking the run past its limit ` +
        `of $${formatUsd(this.limitUsd)} (spent $${formatUsd(this.#spent)}${this.#held > 0 ? `, $${formatUsd(this.#held)} held by calls in flight` : ""})`;
      const error = { code: "RUN_COST_EXCEEDED", message };
      this.stop(error, nodeId);
      throw new WeftError(error.code, message);
    }
    // Refused by the caller's budget: the caller stops, and this run's node fails with its error.
    const outer = this.outer?.reserve(estimateUsd, nodeId) ?? null;
    this.#held += estimateUsd;
    let open = true;
    const end = (actualUsd: number) => {
      if (!open) return;
      open = false;
      this.#held -= estimateUsd;
      this.#spent += actualUsd;
    };
    return {
      settle: (actualUsd) => {
        end(actualUsd ?? 0);
        outer?.settle(actualUsd);
      },
      release: () => {
        end(0);
        outer?.release();
      },
    };
  }

  restore(spentUsd: number): void {
    this.#priced = true;
    this.#spent += spentUsd;
  }
}

/** Dollars with enough digits for fractions of a cent. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? usd.toFixed(2) : usd.toPrecision(3);
}
