import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

const chunks = ["self-attention weighs tokens", "the weather is mild", "queries keys and values", "a recipe for soup"].map((text, i) => ({
  chunkId: `c${i}`,
  documentId: "d",
  text,
  score: 1 - i / 10,
  source: "d",
}));

/** q ─► hits (template: chunks) ─► rank (rerank, scripted model) ─► out */
async function rerank(replies: JsonValue[], config: Record<string, JsonValue> = {}, list: JsonValue = chunks) {
  const workflow = pipeline()
    .input("q", "What is self-attention?")
    .node("hits", "template", { template: JSON.stringify(list), json: true })
    .model("rank", "rerank", replies, { topN: 2, ...config })
    .output("out")
    .edges("q>hits", "hits>rank", "rank>out")
    .build();
  const run = await runPipeline({ workflow });
  const completed = run.of("NODE_COMPLETED").find((event) => event.nodeId === "rank");
  return { ...run, ids: (completed?.value as { chunkId: string; rank: number }[] | undefined)?.map((c) => c.chunkId), completed };
}

describe("rerank nodes", () => {
  it("keep the model's top N in its order, with ranks, shown the query and numbered passages", async () => {
    const { ids, completed, of } = await rerank([{ order: [2, 0, 1, 3] }]);
    expect(ids).toEqual(["c2", "c0"]);
    expect((completed?.value as { rank: number }[]).map((c) => c.rank)).toEqual([1, 2]);
    expect(completed?.details.renderedPrompt).toContain("Query: What is self-attention?");
    expect(completed?.details.renderedPrompt).toContain("[2] queries keys and values");
    expect(of("WARNING")).toEqual([]);
  });

  it("read a list of chunk lists (a join's array of searches) as one list, each chunk once", async () => {
    const nested = [chunks.slice(0, 2), [], chunks.slice(1, 4)];
    expect((await rerank([{ order: [3, 0] }], {}, nested)).ids).toEqual(["c3", "c0"]);
  });

  it("follow a partial order with the rest in their original order", async () => {
    expect((await rerank([{ order: [3] }], { topN: 3 })).ids).toEqual(["c3", "c0", "c1"]);
  });

  it("keep the original order with a warning when an index is out of range or repeated", async () => {
    for (const order of [[1, 7], [1, 1], []]) {
      const { ids, of } = await rerank([{ order }]);
      expect(ids, JSON.stringify(order)).toEqual(["c0", "c1"]);
      expect(of("WARNING").map((event) => event.code), JSON.stringify(order)).toEqual(["RERANK_REPLY_UNUSABLE"]);
    }
  });

  it("keep the original order with a warning when the reply does not parse, even after one repair", async () => {
    const { ids, of } = await rerank(["the best passage is the first one"]);
    expect(ids).toEqual(["c0", "c1"]);
    expect(of("WARNING").map((event) => event.code)).toEqual(["PARSE_REPAIR", "RERANK_REPLY_UNUSABLE"]);
  });

  it("show the model only the first maxCandidates chunks", async () => {
    const { completed } = await rerank([{ order: [1, 0] }], { maxCandidates: 2 });
    expect(completed?.details.renderedPrompt).toContain("[1] the weather is mild");
    expect(completed?.details.renderedPrompt).not.toContain("[2]");
  });

  it("call no model for an empty list", async () => {
    const { completed } = await rerank([{ order: [0] }], {}, []);
    expect(completed).toMatchObject({ value: [], details: { renderedPrompt: null } });
  });
});
