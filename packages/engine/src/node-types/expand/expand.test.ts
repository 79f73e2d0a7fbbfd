import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import { FakeKnowledgeBases, type FakeChunk } from "../../testing/fake-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

const doc = (documentId: string, count: number): FakeChunk[] =>
  Array.from({ length: count }, (_, chunkIndex) => ({ id: `${documentId}#${chunkIndex}`, documentId, chunkIndex, text: `${documentId} part ${chunkIndex}` }));

const bases = () => new FakeKnowledgeBases({ kb: [...doc("a", 6), ...doc("b", 3)] });

const chunk = (documentId: string, chunkIndex: number, score: number, extra: Record<string, JsonValue> = {}) => ({
  chunkId: `${documentId}#${chunkIndex}`,
  documentId,
  text: `${documentId} part ${chunkIndex}`,
  score,
  source: documentId,
  chunkIndex,
  knowledgeBase: "kb",
  ...extra,
});

/** q ─► hits (template: a JSON chunk list) ─► grow (expand) ─► out */
async function expand(hits: JsonValue, config: Record<string, JsonValue> = {}, knowledgeBases = bases()) {
  const workflow = pipeline()
    .input("q", "x")
    .node("hits", "template", { template: JSON.stringify(hits), json: true })
    .node("grow", "expand", config)
    .output("out")
    .edges("q>hits", "hits>grow", "grow>out")
    .build();
  const run = await runPipeline({ workflow, tools: { knowledgeBases } });
  return { ...run, value: run.of("NODE_COMPLETED").find((event) => event.nodeId === "grow")?.value as Record<string, JsonValue>[] | undefined };
}

describe("expand nodes", () => {
  it("add each chunk's neighbours from its own document, in reading order, scored as the chunk they were found around", async () => {
    const { value } = await expand([chunk("a", 3, 0.9), chunk("b", 0, 0.5)]);
    expect(value?.map((c) => c.chunkId)).toEqual(["a#2", "a#3", "a#4", "b#0", "b#1"]);
    expect(value?.[0]).toMatchObject({ score: 0.9, neighbourOf: "a#3", knowledgeBase: "kb", source: "a", chunkIndex: 2 });
    expect(value?.[1]).toEqual(chunk("a", 3, 0.9));
  });

  it("merge overlapping windows and keep the best nearby score", async () => {
    const { value } = await expand([chunk("a", 1, 0.4), chunk("a", 3, 0.8)], { window: 1 });
    expect(value?.map((c) => [c.chunkId, c.score])).toEqual([
      ["a#0", 0.4],
      ["a#1", 0.4],
      ["a#2", 0.8],
      ["a#3", 0.8],
      ["a#4", 0.8],
    ]);
  });

  it("pass web pages through in place and change nothing at window 0", async () => {
    const page = { chunkId: "web:https://x.example/", documentId: "https://x.example/", text: "t", score: 0.7, source: "X", url: "https://x.example/" };
    const knowledgeBases = bases();
    const { value } = await expand([page, chunk("b", 1, 0.5)], { window: 0 }, knowledgeBases);
    expect(value).toEqual([page, chunk("b", 1, 0.5)]);
    expect(knowledgeBases.lookups).toEqual([{ knowledgeBase: "kb", anchors: [{ documentId: "b", chunkIndex: 1 }], window: 0 }]);
  });

  it("output an empty list for an empty input without asking the store", async () => {
    const knowledgeBases = bases();
    const { value } = await expand([], {}, knowledgeBases);
    expect(value).toEqual([]);
    expect(knowledgeBases.lookups).toEqual([]);
  });
});
