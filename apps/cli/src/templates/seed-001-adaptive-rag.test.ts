import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTemplate, script } from "../testing/template-run.js";

/**
 * examples/seed-001-adaptive-rag.json (seed 001), offline:
 *
 *  query ─┬─► history ─┐
 *         └────────────┴─► turn ─► query_router ─[simple]───────────► direct_response ───────────────┐
 *                                      ├─[history_required]─► context_enhancement ─┐                  │
 *                                      └─[rag_required]────────────────────────────┴─► planning        │
 *  planning ─► subtask_executor (map: query_variations ─► retrieval ─► enough_documents ─[web]─► web_search)
 *  subtask_executor ─► synthesis ◄──────────────── retry (loop "retry", max 4) ──────────┐            │
 *                      synthesis ─► hallucination_check ─[pass]─► answer_grader ─[pass]──┼─► answer ◄─┘
 *                                        └─[fail]─► unverified ◄─[fail]─┘                 │
 */
const TEMPLATE = "seed-001-adaptive-rag.json";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-seed-001-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the seed 001 template (adaptive RAG)", () => {
  it("routes a document question to planning, searches the web only for the subtask the handbook does not cover, and passes both checks on the second synthesis", async () => {
    const run = await runTemplate(TEMPLATE);
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.took("query_router")).toEqual([["rag_required"]]);
    expect(run.started("context_enhancement")).toEqual([]);
    expect(run.of("MAP_STARTED")).toEqual([expect.objectContaining({ nodeId: "subtask_executor", items: 3 })]);
    expect(run.took("enough_documents")).toHaveLength(3);
    expect(run.started("web_search")).toEqual(["subtask_executor[2]"]);
    expect(run.value("web_search", "subtask_executor[2]")).toEqual([expect.objectContaining({ url: "https://rag-notes.example/semantic-cache" })]);
    expect(run.started("synthesis")).toEqual(["", "retry#2"]);
    expect(run.of("LOOP_ITERATION").map((event) => [event.loopId, event.iteration, event.feedback])).toEqual([["retry", 2, "'정확도를 40% 높인다'는 근거 문서에 없습니다"]]);
    expect(run.took("hallucination_check")).toEqual([["retry"], ["pass"]]);
    expect(run.took("answer_grader")).toEqual([["pass"]]);
    const documents = run.outcome.state?.documents as { chunkId: string }[];
    expect(new Set(documents.map((chunk) => chunk.chunkId)).size).toBe(documents.length);
    expect(run.outcome.result).toContain("[reranking]");
  });

  it("answers a greeting directly, without planning or retrieval", async () => {
    const run = await runTemplate(TEMPLATE, { input: "안녕하세요" });
    expect(run.took("query_router")).toEqual([["simple"]]);
    expect(run.started("planning")).toEqual([]);
    expect(run.outcome.result).toContain("궁금한 점을 물어보세요");
  });

  it("on a thread, resolves a follow-up from the first turn's messages and plans from the rewritten question", async () => {
    const threadFile = join(dir, "thread.json");
    await runTemplate(TEMPLATE, { threadFile });
    const run = await runTemplate(TEMPLATE, { threadFile, input: "방금 말한 self-attention을 더 자세히 설명해 줘" });
    expect(run.value("history")).toMatch(/^User: Transformer의 self-attention은 어떻게 동작하고.*\n\nAssistant: self-attention은 query와 key/s);
    expect(run.took("query_router")).toEqual([["history_required"]]);
    expect(run.outcome.state?.query).toBe("Transformer self-attention에서 query, key, value는 각각 어떻게 계산되고 multi-head attention은 왜 쓰나요?");
    expect(run.of("MAP_STARTED")).toEqual([expect.objectContaining({ items: 2 })]);
    expect(run.outcome.result).toContain("multi-head attention은");
    const thread = JSON.parse(await readFile(threadFile, "utf8")) as { messages: { role: string; content: string }[] };
    expect(thread.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(thread.messages[2]?.content).toBe("방금 말한 self-attention을 더 자세히 설명해 줘");
  });

  it("stops after four syntheses (three retries) when the checks never pass, and says the answer is unverified", async () => {
    const run = await runTemplate(TEMPLATE, {
      patch: (workflow) => script(workflow, "hallucination_check", [{ verdict: "retry", score: 0.3, reason: "근거 없는 주장이 있습니다" }]),
    });
    expect(run.started("synthesis")).toEqual(["", "retry#2", "retry#3", "retry#4"]);
    expect(run.of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ loopId: "retry", nodeId: "hallucination_check", max: 4, exit: "fail" })]);
    expect(run.started("answer_grader")).toEqual([]);
    expect(run.outcome.result).toMatch(/^검증을 통과하지 못한 답변입니다/);
  });
});
