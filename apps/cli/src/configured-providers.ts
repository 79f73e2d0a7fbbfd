import { availableModelsOf, OfflineLlmProvider, type AvailableModel, type LlmProvider, type LlmProviders } from "@weft/engine";
import { MistralLlmProvider, parseMistralModels } from "@weft/providers";
import type { CliEnv } from "./env.js";

export interface ConfiguredProviders {
  providers: LlmProviders;
  /** The provider/model pairs workflows may name (MODEL_UNAVAILABLE is checked against these). */
  models: AvailableModel[];
}

/** The offline test provider always; Mistral when MISTRAL_API_KEY is set. */
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
  return { providers, models: availableModelsOf(providers) };
}
