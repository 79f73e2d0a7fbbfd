import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { OpenAiMockServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { loadEnv } from "../env.js";
import { startTestApp, type TestApp } from "../testing/app.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { graphql } from "../testing/gql/index.js";
import { RunWorkflow } from "../testing/operations.js";
import { loadProviderConfig } from "./provider-config.js";

/**
 * OpenAI-compatible providers through the real API: `openai` from OPENAI_API_KEY / OPENAI_BASE_URL and
 * a named, keyless endpoint from WEFT_PROVIDERS_FILE, each a local server speaking OpenAI's protocol;
 * the `models` query lists them with their prices, an llm node streams from one, an embedder is another's.
 */

const Models = graphql(`
  query OpenAiModels { models { id label models { id label testOnly inputUsdPerMTok outputUsdPerMTok } } }
`);
const Import = graphql(`
  mutation OpenAiImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);
const Events = graphql(`
  subscription OpenAiEvents($runId: ID!, $afterSeq: Int!) { runEvents(runId: $runId, afterSeq: $afterSeq) { seq type nodeId text output error { code message } } }
`);
const Embedder = graphql(`
  query OpenAiEmbedder { serverInfo { retrieval { embedder { model dimension } } } }
`);

let openai: OpenAiMockServer;
let ollama: OpenAiMockServer;
let dir: string;
let file: string;
let db: TestDatabase;
let api: TestApp | undefined;

beforeAll(async () => {
  openai = await OpenAiMockServer.start({ apiKey: "sk-test" });
  ollama = await OpenAiMockServer.start();
  dir = await mkdtemp(path.join(os.tmpdir(), "weft-providers-"));
  file = path.join(dir, "providers.json");
  await writeFile(
    file,
    JSON.stringify({
      ollama: {
        kind: "openai",
        baseUrl: ollama.baseURL,
        label: "Ollama",
        models: [{ id: "llama3.1:8b", label: "Llama 3.1 8B", inputUsdPerMTok: 0.2, outputUsdPerMTok: 0.6 }],
        embeddingModels: [{ id: "nomic-embed-text", dimension: 768 }],
      },
      mcp: {},
    }),
  );
  db = await openTestDatabase("embedded");
}, 120_000);

afterEach(async () => {
  await api?.close();
  api = undefined;
});

afterAll(async () => {
  await db.close();
  await Promise.all([openai.stop(), ollama.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, OPENAI_MODELS: "gpt-4.1-mini=GPT-4.1 mini", WEFT_PROVIDERS_FILE: file, WEFT_EMBEDDER: "ollama:nomic-embed-text" });

test("models lists the openai provider and the file's endpoints with their prices", async () => {
  api = await startTestApp(db, { env: env() });
  const { models } = await api.admin.request(Models);
  expect(models.map((provider) => provider.id)).toEqual(["offline", "openai", "ollama"]);
  expect(models[1]).toEqual({ id: "openai", label: "OpenAI", models: [{ id: "gpt-4.1-mini", label: "GPT-4.1 mini", testOnly: false, inputUsdPerMTok: null, outputUsdPerMTok: null }] });
  expect(models[2]).toEqual({ id: "ollama", label: "Ollama", models: [{ id: "llama3.1:8b", label: "Llama 3.1 8B", testOnly: false, inputUsdPerMTok: 0.2, outputUsdPerMTok: 0.6 }] });
  const { serverInfo } = await api.admin.request(Embedder);
  expect(serverInfo.retrieval.embedder).toEqual({ model: "ollama:nomic-embed-text", dimension: 768 });
});

/** question ─► answer (llm, ollama) ─► result */
test("an llm node streams its tokens from a named endpoint, and the openai provider sends its key", async () => {
  api = await startTestApp(db, { env: env() });
  ollama.enqueueChat({ kind: "reply", text: "Gwangju is in the southwest.", tokens: ["Gwangju ", "is in ", "the southwest."] });
  const document = {
    format: "weft.workflow/v2",
    name: "Ask a local model",
    nodes: [
      { id: "question", type: "input", content: "Where is Gwangju?" },
      { id: "answer", type: "llm", provider: "ollama", model: "llama3.1:8b", prompt: "{input}" },
      { id: "check", type: "llm", provider: "openai", model: "gpt-4.1-mini", prompt: "Check: {input}" },
      { id: "result", type: "output" },
    ],
    edges: [
      { source: "question", target: "answer" },
      { source: "answer", target: "check" },
      { source: "check", target: "result" },
    ],
  };
  const { importWorkflow } = await api.admin.request(Import, { document });
  expect(importWorkflow.errors).toEqual([]);
  const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: importWorkflow.workflow!.id, input: { streamTokens: true } });
  expect(runWorkflow.errors).toEqual([]);
  const ws = api.admin.ws();
  const collected = api.admin.subscribe(ws, Events, { runId: runWorkflow.run!.id, afterSeq: 0 });
  await collected.ended;
  await ws.dispose();
  const events = collected.items.map((item) => item.runEvents);
  expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED" });
  expect(events.filter((event) => event.type === "NODE_TOKEN" && event.nodeId === "answer").map((event) => event.text)).toEqual(["Gwangju ", "is in ", "the southwest."]);
  expect(ollama.requests.at(-1)!.body).toMatchObject({ model: "llama3.1:8b", stream: true, messages: [{ role: "user", content: "Where is Gwangju?" }] });
  expect(ollama.requests.at(-1)!.headers).not.toHaveProperty("authorization");
  expect(openai.requests.at(-1)!.headers.authorization).toBe("Bearer sk-test");
  expect(openai.requests.at(-1)!.body).toMatchObject({ messages: [{ role: "user", content: "Check: Gwangju is in the southwest." }] });
});

test("a providers file that is unreadable or invalid stops the start with the problem and its path", async () => {
  await expect(loadProviderConfig(loadEnv({ WEFT_PROVIDERS_FILE: path.join(dir, "missing.json") }, {}))).rejects.toThrow(/WEFT_PROVIDERS_FILE: cannot read .*missing\.json \(ENOENT\)/);
  const broken = path.join(dir, "broken.json");
  await writeFile(broken, JSON.stringify({ ollama: { kind: "openai", baseUrl: "not a url", models: [] } }));
  await expect(loadProviderConfig(loadEnv({ WEFT_PROVIDERS_FILE: broken }, {}))).rejects.toMatchObject({
    code: "ENV_INVALID",
    message: expect.stringMatching(/broken\.json\): ollama\.baseUrl: .*ollama\.models: /),
  });
  await expect(startTestApp(db, { env: { WEFT_EMBEDDER: "openai:text-embedding-3-small" } })).rejects.toThrow(/WEFT_EMBEDDER=openai:text-embedding-3-small: no OpenAI-compatible provider "openai"/);
});
