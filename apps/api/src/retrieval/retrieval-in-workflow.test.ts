import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { builtInRegistry, prepareRun, runWorkflow, type PreparedRun, type RunEvent, type RunRequest, type Workflow } from "@weft/engine";
import { LocalEmbedder, LOCAL_EMBEDDER_MODEL, MistralLlmProvider } from "@weft/providers";
import { MistralMockServer } from "@weft/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteRawSql } from "../db/raw-sql.js";
import { indexDocuments } from "./ingestion.test-helpers.js";
import type { KnowledgeBaseIndexSettings } from "./ingestion.service.js";
import type { KnowledgeBaseRecord } from "./knowledge-base-record.js";
import { KnowledgeBaseRetriever } from "./knowledge-base-retriever.js";
import { PgvectorVectorStore } from "./pgvector-vector-store.js";

// The real pieces end to end: pgvector in PGlite, the local embedder, the retriever, the engine's
// runner, and the Mistral provider talking HTTP to a local server that speaks Mistral's protocol.
//
//   question (input) ──▶ answer (generation, knowledge base "handbook", LOW → top_k 3) ──▶ result (output)

const kb: KnowledgeBaseIndexSettings = {
  id: "kb1",
  name: "handbook",
  embeddingModel: LOCAL_EMBEDDER_MODEL,
  dimension: 512,
  store: "pgvector",
  chunkSize: 300,
  chunkOverlap: 0,
};

const workflow = (knowledgeBase: string): Workflow => ({
  name: "rag",
  nodes: [
    { id: "question", type: "input", content: "How are rate limits retried?" },
    { id: "answer", type: "generation", provider: "mistral", model: "mistral-small-latest" },
    { id: "result", type: "output" },
  ],
  edges: [
    { id: "e1", source: "question", target: "answer" },
    { id: "e2", source: "answer", target: "result" },
  ],
  prompts: { generation: "Question: {input_data}\nSources:\n{context}\nAnswer as {output_format}" },
  outputFormat: "JSON",
  knowledgeBase,
  intensity: "LOW",
});

function prepared(workflow: Workflow, request: RunRequest = {}): PreparedRun {
  const result = prepareRun(workflow, request, { registry: builtInRegistry });
  if (!result.ok) throw new Error(`run refused: ${result.violations.map((violation) => violation.code).join(", ")}`);
  return result.run;
}

let db: PGlite;
let mistral: MistralMockServer;
let store: PgvectorVectorStore;
const embedder = new LocalEmbedder();

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  store = new PgvectorVectorStore(pgliteRawSql(db));
  mistral = await MistralMockServer.start({ apiKey: "k" });
  await indexDocuments(
    kb,
    [
      { title: "Retries", content: "Rate limits (HTTP 429) are retried with exponential backoff, honouring Retry-After." },
      { title: "Editor", content: "The editor draws the workflow graph; nodes are connected by dragging." },
    ],
    store,
    embedder,
  );
  // Starting PGlite and building its HNSW index takes seconds on a busy shared machine.
}, 60_000);

afterAll(async () => {
  await mistral?.stop();
  await db?.close();
});

async function run(knowledgeBase: string, lookup: (name: string) => Promise<KnowledgeBaseRecord | null>) {
  const events: RunEvent[] = [];
  const provider = new MistralLlmProvider({ apiKey: "k", serverURL: mistral.url });
  const outcome = await runWorkflow({
    runId: "run-1",
    prepared: prepared(workflow(knowledgeBase), { streamTokens: true }),
    registry: builtInRegistry,
    providers: new Map([["mistral", provider]]),
    retriever: new KnowledgeBaseRetriever({ lookup, embedders: [embedder], stores: [store] }),
    onEvent: (event) => void events.push(event),
    options: { retry: { attempts: 1 } },
  });
  return { outcome, events };
}

const lookupOf = (record: KnowledgeBaseRecord | null) => async (name: string) => (record && record.name === name ? record : null);

describe("retrieval in a model node", () => {
  it("searches the knowledge base, sends the labelled context to Mistral and records chunks, scores and store", async () => {
    mistral.enqueueChat({ kind: "reply", text: '{"description": "retries", "output": "with backoff"}', usage: { promptTokens: 40, completionTokens: 9 } });
    const { events } = await run("handbook", lookupOf(kb));
    const completed = events.find((e) => e.type === "NODE_COMPLETED" && e.nodeId === "answer");
    expect(completed?.type === "NODE_COMPLETED" && completed.output).toBe("with backoff");
    const details = completed?.type === "NODE_COMPLETED" ? completed.details : null;
    expect(details?.store).toBe("pgvector");
    expect(details?.context.map((chunk) => chunk.source.title)).toEqual(["Retries", "Editor"]);
    expect(details?.context[0]?.score).toBeGreaterThan(details?.context[1]?.score ?? 1);
    expect(details?.usage).toEqual({ promptTokens: 40, completionTokens: 9, totalTokens: 49 });
    const sent = mistral.requests.at(-1)?.body as { messages: { content: string }[]; stream: boolean };
    expect(sent.stream).toBe(true);
    expect(sent.messages[0]?.content).toContain("Retries");
    expect(sent.messages[0]?.content).toContain("honouring Retry-After");
    expect(events.some((e) => e.type === "NODE_TOKEN" && e.nodeId === "answer")).toBe(true);
  });

  it("fails the node with KNOWLEDGE_BASE_NOT_FOUND when the knowledge base does not exist", async () => {
    const { outcome, events } = await run("missing", lookupOf(kb));
    expect(outcome.status).toBe("FAILED");
    const failed = events.find((e) => e.type === "NODE_FAILED");
    expect(failed?.type === "NODE_FAILED" && failed.error.code).toBe("KNOWLEDGE_BASE_NOT_FOUND");
  });

  it("fails the node with a clear error when the knowledge base was built with another embedding model", async () => {
    const { events } = await run("handbook", lookupOf({ ...kb, embeddingModel: "mistral-embed", dimension: 1024 }));
    const failed = events.find((e) => e.type === "NODE_FAILED");
    expect(failed?.type === "NODE_FAILED" && failed.error.message).toContain("mistral-embed");
  });

  it("fails the node with RETRIEVAL_FAILED naming the store when the store is down", async () => {
    const closed = await PGlite.create({ extensions: { vector } });
    await closed.close();
    const deadStore = new PgvectorVectorStore(pgliteRawSql(closed));
    const events: RunEvent[] = [];
    await runWorkflow({
      runId: "run-2",
      prepared: prepared(workflow("handbook")),
      registry: builtInRegistry,
      providers: new Map([["mistral", new MistralLlmProvider({ apiKey: "k", serverURL: mistral.url })]]),
      retriever: new KnowledgeBaseRetriever({ lookup: lookupOf(kb), embedders: [embedder], stores: [deadStore] }),
      onEvent: (event) => void events.push(event),
      options: { retry: { attempts: 1 } },
    });
    const failed = events.find((e) => e.type === "NODE_FAILED");
    expect(failed?.type === "NODE_FAILED" && failed.error).toMatchObject({ code: "RETRIEVAL_FAILED", message: expect.stringContaining("pgvector") });
  });
});
