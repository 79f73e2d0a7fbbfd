import { availableModelsOf, OfflineLlmProvider, type AvailableModel, type Embedder, type LlmProvider, type LlmProviders, type ToolProviders } from "@weft/engine";
import { configureWebSearch, EmbeddingSemanticCache, ExactSemanticCache, LocalEmbedder, MistralLlmProvider, parseMistralModels } from "@weft/providers";
import type { CliEnv } from "./env.js";

export interface ConfiguredProviders {
  providers: LlmProviders;
  /** The provider/model pairs workflows may name (MODEL_UNAVAILABLE is checked against these). */
  models: AvailableModel[];
  /**
   * For the tool nodes: web search (`offline` always, `tavily` with TAVILY_API_KEY) and a semantic cache
   * in memory, which lasts as long as the command. Knowledge bases and the thread come per run (run-tools.ts).
   */
  tools: ToolProviders;
  /** The local embedder: the cache's and the folder knowledge bases'. */
  embedder: Embedder;
}

/** The offline test provider always; Mistral when MISTRAL_API_KEY is set; the tool providers. */
export function configureProviders(env: CliEnv): ConfiguredProviders {
  const list: LlmProvider[] = [new OfflineLlmProvider()];
  if (env.MISTRAL_API_KEY) {
    list.push(
      new MistralLlmProvider({
        apiKey: env.MISTRAL_API_KEY,
        ...(env.MISTRAL_SERVER_URL ? { serverURL: env.MISTRAL_SERVER_URL } : {}),
        models: parseMistralModels(env.MISTRAL_MODELS),
      }),
    );
  }
  const providers = new Map(list.map((provider) => [provider.id, provider]));
  const embedder = new LocalEmbedder();
  const tools: ToolProviders = {
    webSearch: configureWebSearch({ tavilyApiKey: env.TAVILY_API_KEY, tavilyServerURL: env.TAVILY_SERVER_URL, tavilyTimeoutMs: env.TAVILY_TIMEOUT_MS }),
    cache: new EmbeddingSemanticCache(embedder, new ExactSemanticCache(embedder.model, embedder.dimension)),
  };
  return { providers, models: availableModelsOf(providers), tools, embedder };
}
