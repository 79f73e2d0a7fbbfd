import { describe, expect, it } from "vitest";
import type { LlmRequest } from "../providers/llm-provider.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { settle } from "../testing/deferred.js";
import { FakeLlmProvider, resultJson } from "../testing/fake-llm-provider.js";
import { randomWorkflow } from "../testing/random-workflow.js";
import { runRoundBased } from "../testing/round-based-reference.js";
import { run } from "../testing/run-harness.js";
import { seededRandom } from "../random/seeded-random.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

/** Output = a digest of the prompt; it answers after a number of hops that depends on the prompt, so
 * completion order varies between nodes without any clock. */
function digestProvider() {
  return new FakeLlmProvider(async (request: LlmRequest) => {
    const digest = fnv1a(request.prompt);
    for (let hop = 0; hop < digest % 4; hop += 1) await settle();
    return resultJson(`#${digest.toString(16)}`);
  }, "digest");
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

describe("dataflow executor against the seed's round-based algorithm", () => {
  it("produces exactly the reference's outputs on 150 random valid workflows", async () => {
    for (let seed = 1; seed <= 150; seed += 1) {
      const wf = randomWorkflow(seededRandom(seed), 14);
      expect(validateWorkflow(wf, { registry: builtInRegistry }), `seed ${seed}`).toEqual([]);
      const expected = await runRoundBased(wf, digestProvider());
      const { outcome } = await run({ workflow: wf, provider: digestProvider(), options: { concurrency: 1 + (seed % 5) } });
      expect(outcome.status, `seed ${seed}`).toBe("COMPLETED");
      expect(outcome.outputs, `seed ${seed}`).toEqual(expected);
      expect(outcome.result).toBe(expected.out);
    }
  });

  it("generates workflows with fan-in, so input order is really exercised", () => {
    const random = seededRandom(7);
    const fanIns = Array.from({ length: 50 }, () => randomWorkflow(random, 14)).filter((wf) =>
      wf.nodes.some((node) => wf.edges.filter((edge) => edge.target === node.id).length > 1),
    );
    expect(fanIns.length).toBeGreaterThan(25);
  });
});
