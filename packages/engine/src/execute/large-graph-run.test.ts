import { describe, expect, it } from "vitest";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { run } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";

const N = 10_000;

describe("large graphs", () => {
  /*
   *  in ──> g ──> v1 ──> v2 ──> … ──> v9997 ──> out
   */
  it("runs a 10,000-node chain to the end with one event sequence", async () => {
    const builder = workflow().input("in", "x").model("g", "generation").edges("in>g");
    let previous = "g";
    for (let i = 1; i < N - 2; i += 1) {
      builder.model(`v${i}`, "validation").edges(`${previous}>v${i}`);
      previous = `v${i}`;
    }
    const wf = builder.output().edges(`${previous}>out`).build();
    const { outcome, events } = await run({ workflow: wf, provider: new FakeLlmProvider() });
    expect(wf.nodes).toHaveLength(N);
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "x" });
    expect(events).toHaveLength(2 + 3 * N);
    expect(events.at(-1)!.seq).toBe(2 + 3 * N);
  });

  /*
   *  in ──> g1 … g9997 ──> ens ──> out
   */
  it("runs a 10,000-node fan-out whose ensemble receives every output in edge order", async () => {
    const builder = workflow().input("in", "x").model("ens", "ensemble").output().edges("ens>out");
    for (let i = 1; i <= N - 3; i += 1) builder.model(`g${i}`, "generation", { prompt: `${i}` }).edges(`in>g${i}`, `g${i}>ens`);
    const provider = new FakeLlmProvider();
    const { outcome } = await run({ workflow: builder.build(), provider, options: { concurrency: 64 } });
    expect(outcome.status).toBe("COMPLETED");
    expect(provider.maxInFlight).toBeLessThanOrEqual(64);
    const parts = outcome.outputs.ens!.split("\n\n");
    expect(parts).toHaveLength(N - 3);
    expect(parts.slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(parts.at(-1)).toBe(String(N - 3));
  });
});
