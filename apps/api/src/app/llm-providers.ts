import { OfflineLlmProvider, type LlmProvider, type LlmProviders } from "@weft/engine";
import { createOpenAiProviders, MistralLlmProvider, NO_OPENAI_ENDPOINTS, parseMistralModels, type OpenAiWiring } from "@weft/providers";
import type { Env } from "../env.js";

/**
 * The configured LLM providers: the offline test models always (labelled as not a language model),
 * Mistral when MISTRAL_API_KEY is set, and every OpenAI-compatible endpoint (OPENAI_*,
 * WEFT_PROVIDERS_FILE). `extra` lets tests and benchmarks add their own.
 */
export function createLlmProviders(env: Env, openai: OpenAiWiring = NO_OPENAI_ENDPOINTS, extra: readonly LlmProvider[] = []): LlmProviders {
  const providers = new Map<string, LlmProvider>();
  const offline = new OfflineLlmProvider();
  providers.set(offline.id, offline);
  if (env.MISTRAL_API_KEY) {
    const mistral = new MistralLlmProvider({
      apiKey: env.MISTRAL_API_KEY,
      serverURL: env.MISTRAL_SERVER_URL,
      timeoutMs: env.MISTRAL_TIMEOUT_MS,
      models: parseMistralModels(env.MISTRAL_MODELS),
    });
    providers.set(mistral.id, mistral);
  }
  for (const provider of createOpenAiProviders(openai.endpoints, openai.readSecret)) providers.set(provider.id, provider);
  for (const provider of extra) providers.set(provider.id, provider);
  return providers;
}
