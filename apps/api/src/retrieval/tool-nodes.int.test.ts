import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import {
  OfflineLlmProvider,
  builtInRegistry,
  prepareRun,
  runWorkflow,
  type JsonValue,
  type RunEvent,
  type SemanticCacheStore,
  type ToolProviders,
  type VectorStore,
  type Workflow,
} from "@weft/engine";
import { EmbeddingSemanticCache, LocalEmbedder, LOCAL_EMBEDDER_MODEL, WeaviateSemanticCache, WeaviateVectorStore } from "@weft/providers";
import { weaviateServerPerFile } from "@weft/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteRawSql } from "../db/raw-sql.js";
import type { KnowledgeBaseIndexSettings } from "./ingestion.service.js";
import { indexDocuments } from "./ingestion.test-helpers.js";
import { KnowledgeBaseRetriever } from "./knowledge-base-retriever.js";
import { PgvectorSemanticCache } from "./pgvector-semantic-cache.js";
import { PgvectorVectorStore } from "./pgvector-vector-store.js";

/**
 * The tool node types that touch a store, run by the engine against the real stores: knowledge bases
 * and semantic caches in pgvector (PGlite) and in Weaviate, searched with the local embedder.
 */

interface Stores {
  chunks: VectorStore;
  cache: SemanticCacheStore;
  close(): Promise<void>;
}

const embedder = new LocalEmbedder();
const sharedWeaviate = weaviateServerPerFile();

const DOCUMENTS = [
  {
    title: "markets.md",
    content:
      "Yangdong Market is a large traditional market in Seo-gu. It sells seafood and dried goods. " +
      "Daein Market in Dong-gu became known for its artists. A night market has been held there on weekend evenings. " +
      "The 1913 Songjeong Station Market opened near the station. Young merchants renewed it in 2016.",
  },
  { title: "mountain.md", content: "Mudeungsan became a national park in 2013. Its highest peak is 1,187 metres high. Columnar joints stand near the summit." },
];

async function pgvectorStores(now: () => number): Promise<Stores> {
  const dir = mkdtempSync(join(tmpdir(), "weft-tools-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  const sql = pgliteRawSql(db);
  return {
    chunks: new PgvectorVectorStore(sql),
    cache: new PgvectorSemanticCache(sql, { model: embedder.model, dimension: embedder.dimension, now }),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function weaviateStores(now: () => number): Promise<Stores> {
  const { url, grpcPort } = await sharedWeaviate();
  const chunks = new WeaviateVectorStore({ url, grpcPort });
  const cache = new WeaviateSemanticCache({ url, grpcPort, model: embedder.model, dimension: embedder.dimension, now });
  return { chunks, cache, close: async () => void (await Promise.all([chunks.close(), cache.close()])) };
}

function pipelineOf(nodes: Workflow["nodes"], arrows: string[]): Workflow {
  const edges = arrows.map((arrow) => {
    const [from, target] = arrow.split(">") as [string, string];
    const [source, sourcePort] = from.split(".") as [string, string | undefined];
    return { id: arrow, source, target, ...(sourcePort ? { sourcePort } : {}) };
  });
  return { name: "tools", prompts: {}, outputFormat: "", knowledgeBase: null, intensity: "MEDIUM", nodes, edges } as unknown as Workflow;
}

async function run(workflow: Workflow, tools: ToolProviders) {
  const events: RunEvent[] = [];
  const prepared = prepareRun(workflow, {}, { registry: builtInRegistry });
  if (!prepared.ok) throw new Error(`run refused: ${prepared.violations.map((violation) => violation.code).join(", ")}`);
  const outcome = await runWorkflow({
    runId: "run",
    prepared: prepared.run,
    registry: builtInRegistry,
    providers: new Map([["offline", new OfflineLlmProvider()]]),
    tools,
    onEvent: (event) => void events.push(event),
  });
  const valueOf = (nodeId: string) => events.find((event) => event.type === "NODE_COMPLETED" && event.nodeId === nodeId) as { value?: JsonValue } | undefined;
  return { outcome, events, types: events.map((event) => event.type), valueOf };
}

/** q ─► lookup ─[hit]───────────────────────────► j ─► out;  lookup ─[miss]─► answer (scripted) ─► store ─► j */
function cacheGraph(question: string, namespace?: string): Workflow {
  const scoped = namespace ? { namespace } : {};
  return pipelineOf(
    [
      { id: "q", type: "input", content: question },
      { id: "lookup", type: "cache_lookup", config: { threshold: 0.95, ...scoped } },
      { id: "answer", type: "llm", provider: "offline", model: "scripted", params: { replies: [`answer to: ${question}`] } },
      { id: "store", type: "cache_store", config: { ttlSeconds: 600, ...scoped } },
      { id: "j", type: "join", config: { mode: "first" } },
      { id: "out", type: "output" },
    ] as Workflow["nodes"],
    ["q>lookup", "lookup.hit>j", "lookup.miss>answer", "answer>store", "store>j", "j>out"],
  );
}

for (const [name, open] of [
  ["pgvector in PGlite", pgvectorStores],
  ["Weaviate", weaviateStores],
] as const) {
  describe(`tool nodes on ${name}`, () => {
    let stores: Stores;
    let now = Date.UTC(2026, 5, 1);
    let tools: ToolProviders;
    const kb: KnowledgeBaseIndexSettings = { id: `tools_${name.split(" ")[0]}_${process.pid}`, name: "guide", embeddingModel: LOCAL_EMBEDDER_MODEL, dimension: 512, store: "", chunkSize: 90, chunkOverlap: 0 };

    beforeAll(async () => {
      stores = await open(() => now);
      kb.store = stores.chunks.id;
      await indexDocuments(kb, DOCUMENTS, stores.chunks, embedder);
      tools = {
        knowledgeBases: new KnowledgeBaseRetriever({ lookup: async (n) => (n === kb.name ? kb : null), embedders: [embedder], stores: [stores.chunks] }),
        cache: new EmbeddingSemanticCache(embedder, stores.cache),
        workflowVersion: { workflowId: `wf_${name.split(" ")[0]}_${process.pid}`, version: 1 },
      };
    }, 120_000);

    afterAll(async () => {
      await stores?.chunks.dropCollection(`kb_${kb.id}`);
      await stores?.close();
    }, 60_000);

    it("retrieve with a source filter and several queries, then expand to the neighbouring chunks in reading order", async () => {
      // q ─► find (retrieve) ─► grow (expand) ─► out
      const workflow = pipelineOf(
        [
          { id: "q", type: "input", content: "night market on weekend evenings" },
          { id: "find", type: "retrieve", config: { knowledgeBase: "guide", topK: 1, queries: '[input, "Daein Market artists"]', filter: { source: "markets.md" } } },
          { id: "grow", type: "expand", config: { window: 1 } },
          { id: "out", type: "output" },
        ] as Workflow["nodes"],
        ["q>find", "find>grow", "grow>out"],
      );
      const { outcome, valueOf } = await run(workflow, tools);
      expect(outcome.status).toBe("COMPLETED");
      const found = valueOf("find")?.value as { chunkId: string; source: string; chunkIndex: number; text: string }[];
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ source: "markets.md", knowledgeBase: "guide" });
      expect(found[0]?.text).toMatch(/night market|Daein/);
      const grown = valueOf("grow")?.value as { chunkId: string; chunkIndex: number; source: string; neighbourOf?: string }[];
      const indexes = grown.map((chunk) => chunk.chunkIndex);
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
      expect(indexes).toContain(found[0]!.chunkIndex);
      expect(grown.length).toBeGreaterThan(1);
      for (const chunk of grown) expect(chunk.source).toBe("markets.md");
      for (const chunk of grown.filter((c) => c.chunkId !== found[0]!.chunkId)) expect(chunk.neighbourOf).toBe(found[0]!.chunkId);
    });

    it("cache: miss and store, hit on the same question, miss an unrelated one", async () => {
      const first = await run(cacheGraph("When did Mudeungsan become a national park?"), tools);
      expect(first.types).toContain("CACHE_MISS");
      expect(first.outcome.result).toBe("answer to: When did Mudeungsan become a national park?");
      const again = await run(cacheGraph("When did Mudeungsan become a national park?"), tools);
      const hit = again.events.find((event) => event.type === "CACHE_HIT") as { similarity: number } | undefined;
      expect(hit?.similarity).toBeCloseTo(1, 3);
      expect(again.outcome.result).toBe("answer to: When did Mudeungsan become a national park?");
      expect(again.types.filter((type) => type === "NODE_SKIPPED")).toHaveLength(2);
      const other = await run(cacheGraph("Where is the night market held?"), tools);
      expect(other.types).toContain("CACHE_MISS");
    });

    it("cache: an entry expires after its time to live and is then removed for good", async () => {
      await run(cacheGraph("How high is the highest peak?"), tools);
      expect((await run(cacheGraph("How high is the highest peak?"), tools)).types).toContain("CACHE_HIT");
      now += 601_000;
      expect((await run(cacheGraph("How high is the highest peak?"), tools)).types).toContain("CACHE_MISS");
      expect(await stores.cache.removeExpired()).toBeGreaterThanOrEqual(1);
    });

    it("cache: a namespace is shared, and other workflow versions do not see a version's entries", async () => {
      await run(cacheGraph("Who renewed the station market?", "faq"), tools);
      const otherVersion = { ...tools, workflowVersion: { workflowId: "another", version: 7 } };
      expect((await run(cacheGraph("Who renewed the station market?", "faq"), otherVersion)).types).toContain("CACHE_HIT");
      expect((await run(cacheGraph("Who renewed the station market?"), otherVersion)).types).toContain("CACHE_MISS");
    });
  });
}
