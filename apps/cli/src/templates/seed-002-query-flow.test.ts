import { describe, expect, it } from "vitest";
import { runTemplate, script, sharedProviders } from "../testing/template-run.js";

/**
 * examples/seed-002-query-flow.json (seed 002), offline:
 *
 *  query ─► cache_lookup ─[hit]──────────────────────────────────────────────────────────────► answer ─► final_answer
 *              └─[miss]─► plan ─► retrieve ─► expand ─► pool ─► rerank ─► judge ─[pass|fail]─► generate ─► grade
 *                                    ▲                                      │                     ▲        │
 *                                    └──────── retry (loop "retrieval", max 3, exit pass) ─┘      └─ retry ─┤ (loop "rewrite", max 3, exit fail)
 *                                                                 grade ─[pass]─► cache_store ─► answer ◄─[fail]─┘
 */
const TEMPLATE = "seed-002-query-flow.json";

describe("the seed 002 template (query flow)", () => {
  it("misses the cache, retrieves again with the aspects the judge found missing, and stores the grounded answer", async () => {
    const run = await runTemplate(TEMPLATE);
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.of("CACHE_MISS")).toEqual([expect.objectContaining({ nodeId: "cache_lookup" })]);
    expect(run.started("retrieve")).toEqual(["", "retrieval#2"]);
    expect(run.of("LOOP_ITERATION").map((event) => [event.loopId, event.iteration, event.feedback])).toEqual([["retrieval", 2, "self-attention, positional encoding"]]);
    const second = run.of("NODE_COMPLETED").find((event) => event.nodeId === "retrieve" && event.invocation === "retrieval#2");
    expect(second?.description).toMatch(/\(3 queries, memory\)/);
    expect(run.took("judge")).toEqual([["retry"], ["pass"]]);
    expect(run.started("generate")).toEqual([""]);
    expect(run.took("grade")).toEqual([["pass"]]);
    expect(run.started("cache_store")).toEqual([""]);
    const pool = run.outcome.state?.pool_all as { chunkId: string }[];
    expect(new Set(pool.map((chunk) => chunk.chunkId)).size).toBe(pool.length);
    expect(run.outcome.state?.pool_high).toHaveLength(5);
  });

  it("answers the same question from the cache the second time, skipping everything after the lookup, and misses another question", async () => {
    const providers = sharedProviders();
    const first = await runTemplate(TEMPLATE, { providers });
    const again = await runTemplate(TEMPLATE, { providers });
    expect(again.of("CACHE_HIT")).toEqual([expect.objectContaining({ nodeId: "cache_lookup", similarity: expect.closeTo(1, 6) })]);
    expect(again.took("cache_lookup")).toEqual([["hit"]]);
    expect(again.started("plan")).toEqual([]);
    expect(again.outcome.result).toBe(first.outcome.result);
    const other = await runTemplate(TEMPLATE, { providers, input: "재순위화는 왜 필요한가요?" });
    expect(other.took("cache_lookup")).toEqual([["miss"]]);
  });

  it("retrieves three times at most, then generates from what it has", async () => {
    const run = await runTemplate(TEMPLATE, {
      patch: (workflow) => script(workflow, "judge", [{ verdict: "retry", score: 0.3, reason: "positional encoding" }]),
    });
    expect(run.started("retrieve")).toEqual(["", "retrieval#2", "retrieval#3"]);
    expect(run.of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ loopId: "retrieval", nodeId: "judge", exit: "pass" })]);
    expect(run.started("generate")).toEqual([""]);
    expect(run.outcome.status).toBe("COMPLETED");
  });

  it("regenerates an ungrounded answer, and ends without caching one that never becomes grounded", async () => {
    const run = await runTemplate(TEMPLATE, {
      patch: (workflow) => script(workflow, "grade", [{ verdict: "retry", score: 0.2, reason: "근거 없는 문장이 있습니다" }]),
    });
    expect(run.started("generate")).toEqual(["", "rewrite#2", "rewrite#3"]);
    expect(run.of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ loopId: "rewrite", nodeId: "grade", exit: "fail" })]);
    expect(run.started("cache_store")).toEqual([]);
    expect(run.outcome.status).toBe("COMPLETED");
  });
});
