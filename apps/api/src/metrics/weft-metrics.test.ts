import type { RunEvent } from "@weft/engine";
import { expect, test } from "vitest";
import { WeftMetrics } from "./weft-metrics.js";

const at = "2026-01-01T00:00:00.000Z";
const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const details = { startedAt: at, finishedAt: "2026-01-01T00:00:01.000Z" };

const started = (runId: string, nodeId: string, nodeType: string): RunEvent => ({ type: "NODE_STARTED", runId, seq: 1, at, nodeId, nodeType, invocation: "" });
const completed = (runId: string, nodeId: string) => ({ type: "NODE_COMPLETED", runId, seq: 2, at, nodeId, description: "", output: "", invocation: "", details }) as unknown as RunEvent;

async function nodeCounts(metrics: WeftMetrics): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const value of (await metrics.registry.getSingleMetric("weft_node_duration_seconds")!.get()).values) {
    // A histogram's values are its buckets, sum and count, told apart by metricName (missing from prom-client's type).
    if ((value as { metricName?: string }).metricName === "weft_node_duration_seconds_count") counts[String(value.labels["node_type"])] = value.value;
  }
  return counts;
}

test("a node's end is counted under the type its start named, per run, and a run that ends or waits for a person forgets its nodes", async () => {
  const metrics = new WeftMetrics({ runCounts: async () => ({}), taskCounts: async () => ({}), queue: () => ({ queued: 0, running: 0 }) });
  // Two runs with the same node ids but different types keep theirs apart.
  metrics.observeEvent(started("a", "n", "generation"));
  metrics.observeEvent(started("b", "n", "template"));
  metrics.observeEvent(completed("a", "n"));
  metrics.observeEvent(completed("b", "n"));
  expect(await nodeCounts(metrics)).toEqual({ generation: 1, template: 1 });

  // A run that waits leaves this process: what it started is forgotten (its node completes, maybe elsewhere, untyped).
  metrics.observeEvent(started("c", "review", "human"));
  metrics.observeEvent({ type: "RUN_WAITING", runId: "c", seq: 3, at, taskIds: ["t"], outputs: {}, usage });
  metrics.observeEvent(completed("c", "review"));
  // A run that ends forgets the nodes it left running.
  metrics.observeEvent(started("d", "slow", "generation"));
  metrics.observeEvent({ type: "RUN_CANCELLED", runId: "d", seq: 3, at, reason: "stop", outputs: {}, usage });
  metrics.observeEvent(completed("d", "slow"));
  expect(await nodeCounts(metrics)).toEqual({ generation: 1, template: 1, unknown: 2 });
});
