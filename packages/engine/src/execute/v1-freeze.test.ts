import { describe, expect, it, vi } from "vitest";
import type { RunEvent } from "../events/run-event.js";
import { ProviderError } from "../model/errors.js";
import type { Workflow, WorkflowNode } from "../model/workflow.js";
import type { LlmRequest } from "../providers/llm-provider.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { settle } from "../testing/deferred.js";
import { FakeLlmProvider, providers, resultJson } from "../testing/fake-llm-provider.js";
import { randomWorkflow } from "../testing/random-workflow.js";
import { pick, seededRandom } from "../random/seeded-random.js";
import { runSeedWorkflow } from "../testing/seed-oracle/run-workflow.oracle.js";
import { seedRegistry } from "../testing/seed-oracle/seed-registry.js";
import { validateSeedWorkflow } from "../testing/seed-oracle/validate-workflow.oracle.js";
import { preparedOrThrow } from "../testing/prepared-run.harness.js";
import { prepareRun } from "./prepare-run.js";
import { runWorkflow } from "./run-workflow.js";
import type * as TurnClock from "./turn-clock.js";

/**
 * v1 is a frozen profile (SPEC-V2 §1): any v1 document yields the same violations and the same run
 * events through the v2 code paths (rules, planner, runner) as through the seed-000 ones, kept as a
 * test-only oracle in testing/seed-oracle. Events may differ only by fields v2 adds (`invocation`).
 */

// The runners are compared drain for drain. The turn clock defers a runner's next steps to a macrotask
// once the thread has been held 40 ms of wall time, which on a loaded machine falls at different points
// of the two runs and reorders events of independent branches: it is held off here (the hostile-run
// tests against a real API process measure what it is for).
vi.mock("./turn-clock.js", async (importOriginal) => ({
  ...(await importOriginal<typeof TurnClock>()),
  sliceSpent: () => false,
  yieldIfSliceSpent: () => Promise.resolve(),
}));

const SEED_TYPES = ["input", "generation", "ensemble", "validation", "output"] as const;

/** A random valid v1 workflow, then a few random edits that may break any rule. */
function randomSeedGraph(seed: number): Workflow {
  const random = seededRandom(seed);
  const workflow = randomWorkflow(random, 10);
  const ids = () => workflow.nodes.map((node) => node.id);
  const edits = Math.floor(random() * 4);
  for (let k = 0; k < edits; k += 1) {
    const kind = pick(random, ["addEdge", "dropEdge", "retype", "dropModel", "addNode"] as const);
    if (kind === "addEdge") workflow.edges.push({ id: `x${k}`, source: pick(random, ids()), target: pick(random, ids()) });
    else if (kind === "dropEdge" && workflow.edges.length > 0) workflow.edges.splice(Math.floor(random() * workflow.edges.length), 1);
    else if (kind === "retype") {
      const at = Math.floor(random() * workflow.nodes.length);
      workflow.nodes[at] = { ...workflow.nodes[at]!, type: pick(random, [...SEED_TYPES, "mystery"]) } as WorkflowNode;
    } else if (kind === "dropModel") {
      const at = Math.floor(random() * workflow.nodes.length);
      const { model: _model, ...rest } = workflow.nodes[at]!;
      workflow.nodes[at] = rest;
    } else workflow.nodes.push({ id: `n${k}`, type: pick(random, SEED_TYPES), provider: "digest", model: "m" });
  }
  return workflow;
}

/** Answers with a digest of the prompt after a prompt-dependent number of hops; fails for some prompts. */
function digestProvider(failures: boolean) {
  return new FakeLlmProvider(async (request: LlmRequest) => {
    const digest = fnv1a(request.prompt);
    for (let hop = 0; hop < digest % 4; hop += 1) await settle();
    if (failures && digest % 9 === 0) throw new ProviderError("PROVIDER_BAD_REQUEST", "refused by the digest model", { retryable: false });
    return digest % 13 === 0 && failures ? "not json" : resultJson(`#${digest.toString(16)}`);
  }, "digest");
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Drops what v2 adds to events: `invocation` on node events. */
function withoutV2Fields(events: RunEvent[]): unknown[] {
  return events.map((event) => {
    const { invocation: _invocation, ...rest } = event as RunEvent & { invocation?: string };
    return rest;
  });
}

const models = [{ provider: "digest", model: "m" }];

describe("the v1 freeze", () => {
  it("gives every v1 graph the same violations through the v2 rules as through the seed-000 rules", () => {
    const broken = new Set<string>();
    for (let seed = 1; seed <= 400; seed += 1) {
      const graph = randomSeedGraph(seed);
      const expected = validateSeedWorkflow(graph, { models });
      for (const violation of expected) broken.add(violation.code);
      expect(validateWorkflow(graph, { models, registry: seedRegistry }), `seed ${seed}`).toEqual(expected);
      const pipelineCodes = validateWorkflow(graph, { models, registry: builtInRegistry }).map(({ code, nodeIds, edgeIds }) => ({ code, nodeIds, edgeIds }));
      expect(pipelineCodes, `seed ${seed} with every type registered`).toEqual(expected.map(({ code, nodeIds, edgeIds }) => ({ code, nodeIds, edgeIds })));
    }
    // The edits really break rules, of many kinds.
    expect(broken.size).toBeGreaterThanOrEqual(9);
  });

  it("runs every valid v1 workflow with the same events through the v2 runner as through the seed-000 runner", async () => {
    let compared = 0;
    let failed = 0;
    for (let seed = 1; seed <= 120; seed += 1) {
      const workflow = randomWorkflow(seededRandom(seed), 12);
      const failures = seed % 3 === 0;
      const options = { concurrency: 1 + (seed % 4), clock: () => 0, sleep: async () => undefined, parseRepair: seed % 2 === 0 };
      const seedEvents: RunEvent[] = [];
      const seedOutcome = await runSeedWorkflow({ runId: "r", workflow, registry: seedRegistry, providers: providers(digestProvider(failures)), onEvent: (event) => void seedEvents.push(event), options });
      for (const registry of [seedRegistry, builtInRegistry]) {
        const events: RunEvent[] = [];
        const prepared = preparedOrThrow(prepareRun(workflow, {}, { registry, concurrency: options.concurrency, parseRepair: options.parseRepair }));
        const outcome = await runWorkflow({ runId: "r", prepared, registry, providers: providers(digestProvider(failures)), onEvent: (event) => void events.push(event), options: { clock: options.clock, sleep: options.sleep } });
        expect(withoutV2Fields(events), `seed ${seed}`).toEqual(seedEvents);
        // Cost came after the freeze (SPEC-V3 §3): these models have no prices, so nothing was costed.
        const { costUsd, ...frozen } = outcome;
        expect(costUsd).toBeNull();
        expect(frozen, `seed ${seed}`).toEqual(seedOutcome);
        compared += 1;
      }
      if (seedOutcome.status === "FAILED") failed += 1;
    }
    expect(compared).toBe(240);
    // Failures (provider errors, parse repair, skipped nodes) are compared too, not only clean runs.
    expect(failed).toBeGreaterThan(10);
  });
});
