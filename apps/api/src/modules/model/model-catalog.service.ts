import { availableModelsOf, type AvailableModel, type LlmProviders } from "@weft/engine";
import type { ServiceDeps } from "../../service-deps.js";
import type { ModelProviderObject } from "./model.type.js";

/**
 * The configured providers and their models (with prices where configured): the offline provider always,
 * Mistral when a key is set, the OpenAI-compatible endpoints of OPENAI_* and WEFT_PROVIDERS_FILE.
 * The same list feeds the `models` query (the editor's dropdowns) and the MODEL_UNAVAILABLE rule, so
 * the editor never offers a model a run would refuse.
 */
export class ModelCatalogService {
  readonly #providers: LlmProviders;
  readonly #available: readonly AvailableModel[];

  constructor(deps: Pick<ServiceDeps, "llm">) {
    this.#providers = deps.llm;
    this.#available = Object.freeze(availableModelsOf(deps.llm));
  }

  providers(): ModelProviderObject[] {
    return [...this.#providers.values()].map((provider) => ({
      id: provider.id,
      label: provider.label,
      models: provider.models.map((model) => ({
        id: model.id,
        label: model.label,
        testOnly: model.testOnly ?? false,
        inputUsdPerMTok: model.inputUsdPerMTok ?? null,
        outputUsdPerMTok: model.outputUsdPerMTok ?? null,
      })),
    }));
  }

  /** Provider/model pairs a model node may name. */
  availableModels(): readonly AvailableModel[] {
    return this.#available;
  }

  isAvailable(provider: string, model: string): boolean {
    return this.#available.some((pair) => pair.provider === provider && pair.model === model);
  }
}
