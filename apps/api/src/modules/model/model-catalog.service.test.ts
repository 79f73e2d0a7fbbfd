import { describe, expect, it } from "vitest";
import { OfflineLlmProvider, type LlmProvider } from "@weft/engine";
import { ModelCatalogService } from "./model-catalog.service.js";

const otherProvider = {
  id: "acme",
  label: "Acme",
  models: [{ id: "acme-large", label: "Acme Large" }],
} as unknown as LlmProvider;

describe("model catalogue", () => {
  it("lists every configured provider with its models, marking test models", () => {
    const catalogue = new ModelCatalogService({ llm: new Map([["offline", new OfflineLlmProvider()], ["acme", otherProvider]]) });
    const providers = catalogue.providers();
    expect(providers.map((provider) => provider.id)).toEqual(["offline", "acme"]);
    expect(providers[0]!.models.every((model) => model.testOnly)).toBe(true);
    expect(providers[1]!.models).toEqual([{ id: "acme-large", label: "Acme Large", testOnly: false, inputUsdPerMTok: null, outputUsdPerMTok: null }]);
  });

  it("answers availability per provider and model pair, as MODEL_UNAVAILABLE checks it", () => {
    const catalogue = new ModelCatalogService({ llm: new Map([["acme", otherProvider]]) });
    expect(catalogue.isAvailable("acme", "acme-large")).toBe(true);
    expect(catalogue.isAvailable("acme", "echo")).toBe(false);
    expect(catalogue.isAvailable("offline", "echo")).toBe(false);
    expect(catalogue.availableModels()).toEqual([{ provider: "acme", model: "acme-large" }]);
  });
});
