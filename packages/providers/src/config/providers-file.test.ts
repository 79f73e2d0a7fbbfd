import { describe, expect, it } from "vitest";
import { embedderChoice, endpointKey, openAiEndpoints } from "./openai-endpoints.js";
import { EMPTY_PROVIDERS_FILE, parseProvidersFile } from "./providers-file.js";

const ollama = {
  kind: "openai",
  baseUrl: "http://127.0.0.1:11434/v1",
  models: [{ id: "llama3.1:8b", label: "Llama 3.1 8B" }, { id: "qwen2.5:7b", inputUsdPerMTok: 0, outputUsdPerMTok: 0 }],
  embeddingModels: [{ id: "nomic-embed-text", dimension: 768 }],
};

const parse = (value: unknown) => parseProvidersFile(JSON.stringify(value), "/etc/weft/providers.json");

describe("parseProvidersFile", () => {
  it("reads named OpenAI-compatible endpoints in order and keeps the mcp section for the MCP client", () => {
    const file = parse({ ollama, vllm: { kind: "openai", baseUrl: "https://vllm.internal/v1", apiKey: "{secret.VLLM_KEY}", models: [{ id: "org/model" }] }, mcp: { docs: { url: "http://x" } } });
    expect([...file.endpoints.keys()]).toEqual(["ollama", "vllm"]);
    expect(file.endpoints.get("ollama")?.models[1]).toEqual({ id: "qwen2.5:7b", inputUsdPerMTok: 0, outputUsdPerMTok: 0 });
    expect(file.mcp).toEqual({ docs: { url: "http://x" } });
  });

  it("lists every problem with its path and the file's name", () => {
    const read = () =>
      parse({
        ollama: { ...ollama, models: [{ id: "a b" }, { id: "x", inputUsdPerMTok: -1 }] },
        mistral: ollama,
        "bad name": ollama,
        other: { kind: "anthropic", baseUrl: "ftp://x", models: [] },
        twice: { ...ollama, models: [{ id: "m" }, { id: "m" }], extra: true },
      });
    expect(read).toThrow(expect.objectContaining({ code: "INVALID_PROVIDER_CONFIG" }));
    const message = (() => {
      try {
        read();
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^WEFT_PROVIDERS_FILE \(\/etc\/weft\/providers\.json\): /);
    for (const part of [
      "ollama.models.0.id: a model id is",
      "ollama.models.1.inputUsdPerMTok:",
      "mistral: the name belongs to a built-in provider",
      '"bad name": a provider name is',
      "other.kind:",
      "other.baseUrl:",
      "other.models:",
      "twice:",
      "extra",
    ]) {
      expect(message).toContain(part);
    }
  });

  it("refuses text that is not a JSON object", () => {
    expect(() => parseProvidersFile("{", "f")).toThrow(/WEFT_PROVIDERS_FILE \(f\): not JSON/);
    expect(() => parseProvidersFile("[]", "f")).toThrow(/must be a JSON object/);
  });
});

describe("openAiEndpoints", () => {
  it("offers openai from OPENAI_API_KEY with the default models, then the file's endpoints", () => {
    const endpoints = openAiEndpoints({ OPENAI_API_KEY: "sk" }, parse({ ollama }));
    expect(endpoints.map((e) => [e.id, e.baseURL, e.apiKey.kind])).toEqual([
      ["openai", "https://api.openai.com/v1", "text"],
      ["ollama", "http://127.0.0.1:11434/v1", "none"],
    ]);
    expect(endpoints[0]!.models.map((m) => m.id)).toContain("gpt-4.1-mini");
  });

  it("offers openai on OPENAI_BASE_URL alone, keyless, with OPENAI_MODELS", () => {
    const [endpoint] = openAiEndpoints({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_MODELS: "llama=Llama" }, EMPTY_PROVIDERS_FILE);
    expect(endpoint).toMatchObject({ id: "openai", apiKey: { kind: "none" }, models: [{ id: "llama", label: "Llama" }] });
  });

  it("lets a file entry named openai replace the settings' provider, keeping OPENAI_API_KEY as its key", () => {
    const priced = { kind: "openai", baseUrl: "https://api.openai.com/v1", models: [{ id: "gpt-4.1-mini", inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 }] };
    const endpoints = openAiEndpoints({ OPENAI_API_KEY: "sk" }, parse({ openai: priced }));
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]).toMatchObject({ id: "openai", apiKey: { kind: "text", value: "sk" }, models: [{ id: "gpt-4.1-mini", label: "gpt-4.1-mini", inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 }] });
  });

  it("reads a secret key at each call, and refuses one where there is no secret store", async () => {
    const [endpoint] = openAiEndpoints({}, parse({ vllm: { ...ollama, apiKey: "{secret.VLLM}" } }));
    expect(endpoint).toMatchObject({ apiKey: { kind: "secret", name: "VLLM" }, keySetting: "the secret VLLM" });
    let value: string | null = "first";
    const key = endpointKey(endpoint!, async (name) => (name === "VLLM" ? value : null));
    expect(typeof key === "function" && (await key())).toBe("first");
    value = null;
    await expect(typeof key === "function" ? key() : null).rejects.toMatchObject({ code: "PROVIDER_AUTH_FAILED", message: expect.stringContaining("createSecret") });
    expect(() => endpointKey(endpoint!, null)).toThrow(/secrets are read from the API's database only/);
  });
});

describe("embedderChoice", () => {
  const endpoints = openAiEndpoints({ OPENAI_API_KEY: "sk" }, parse({ ollama }));

  it("knows OpenAI's dimensions and takes other servers' from the file", () => {
    expect(embedderChoice("openai:text-embedding-3-large", endpoints)).toMatchObject({ model: "text-embedding-3-large", dimension: 3072 });
    expect(embedderChoice("ollama:nomic-embed-text", endpoints)).toMatchObject({ endpoint: { id: "ollama" }, dimension: 768 });
  });

  it("says what is missing: the provider, or the dimension", () => {
    expect(() => embedderChoice("nowhere:model", endpoints)).toThrow(/WEFT_EMBEDDER=nowhere:model: no OpenAI-compatible provider "nowhere"/);
    expect(() => embedderChoice("ollama:mxbai", endpoints)).toThrow(/list it under ollama.embeddingModels/);
  });
});
