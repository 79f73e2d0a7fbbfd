import { availableModelsOf, OfflineLlmProvider, type AvailableModel, type Embedder, type LlmProvider, type LlmProviders, type ToolProviders } from "@weft/engine";
import { readFileSync } from "node:fs";
import {
  configureWebSearch,
  createOpenAiProviders,
  EMPTY_PROVIDERS_FILE,
  EmbeddingSemanticCache,
  ExactSemanticCache,
  GuardedHttpClient,
  LocalEmbedder,
  MistralLlmProvider,
  openAiEndpoints,
  parseMistralModels,
  parseProvidersFile,
  type ProvidersFile,
} from "@weft/providers";
import { CliEnvError, type CliEnv } from "./env.js";

export interface ConfiguredProviders {
  providers: LlmProviders;
  /** The provider/model pairs workflows may name (MODEL_UNAVAILABLE is checked against these). */
  models: AvailableModel[];
  /**
   * For the tool nodes: web search (`offline` always, `tavily` with TAVILY_API_KEY), a semantic cache
   * in memory, which lasts as long as the command, and HTTP requests through the destination guard. Knowledge bases and the thread come per run (run-tools.ts).
   */
  tools: ToolProviders;
  /** The local embedder: the cache's and the folder knowledge bases'. */
  embedder: Embedder;
}

/**
 * The offline test provider always; Mistral when MISTRAL_API_KEY is set; the OpenAI-compatible endpoints
 * of OPENAI_* and WEFT_PROVIDERS_FILE (keys as text: the command line has no secret store); the tool providers.
 */
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
  try {
    list.push(...createOpenAiProviders(openAiEndpoints(env, readProvidersFile(env.WEFT_PROVIDERS_FILE)), null));
  } catch (error) {
    throw new CliEnvError((error as Error).message);
  }
  const providers = new Map(list.map((provider) => [provider.id, provider]));
  const embedder = new LocalEmbedder();
  const tools: ToolProviders = {
    webSearch: configureWebSearch({ tavilyApiKey: env.TAVILY_API_KEY, tavilyServerURL: env.TAVILY_SERVER_URL, tavilyTimeoutMs: env.TAVILY_TIMEOUT_MS }),
    cache: new EmbeddingSemanticCache(embedder, new ExactSemanticCache(embedder.model, embedder.dimension)),
    // No secret store here: a {secret.NAME} in a request fails with SECRET_NOT_FOUND.
    http: new GuardedHttpClient({ allow: env.WEFT_HTTP_ALLOW }),
  };
  return { providers, models: availableModelsOf(providers), tools, embedder };
}

function readProvidersFile(file: string | undefined): ProvidersFile {
  if (file === undefined) return EMPTY_PROVIDERS_FILE;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliEnvError(`WEFT_PROVIDERS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseProvidersFile(text, file);
}
