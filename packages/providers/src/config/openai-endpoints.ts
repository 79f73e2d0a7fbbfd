import { ProviderError, WeftError, type LlmModelInfo } from "@weft/engine";
import { parseModelList } from "../chat/model-list.js";
import { DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_TIMEOUT_MS, type ApiKeySource } from "../openai/openai-client.js";
import { OPENAI_EMBEDDING_DIMENSIONS, OpenAiEmbedder } from "../openai/openai-embedder.js";
import { OpenAiLlmProvider } from "../openai/openai-llm-provider.js";
import type { OpenAiEndpointConfig, ProvidersFile } from "./providers-file.js";
import { secretReference, type SecretReader } from "./secret-references.js";

/** How an endpoint's key is given: none, as text, or as a stored secret read at each call. */
export type EndpointKey = { kind: "none" } | { kind: "text"; value: string } | { kind: "secret"; name: string };

/** One OpenAI-compatible endpoint as the server runs it: OPENAI_* settings or a WEFT_PROVIDERS_FILE entry. */
export interface OpenAiEndpoint {
  id: string;
  label: string;
  baseURL: string;
  apiKey: EndpointKey;
  /** What a user fixes when the key is refused. */
  keySetting: string;
  models: LlmModelInfo[];
  embeddingModels: { id: string; dimension: number }[];
  timeoutMs: number;
}

/** The `openai` provider's models when OPENAI_MODELS is not set (no prices: give them in WEFT_PROVIDERS_FILE). */
export const DEFAULT_OPENAI_MODELS: readonly LlmModelInfo[] = [
  { id: "gpt-4.1-mini", label: "GPT-4.1 mini" },
  { id: "gpt-4.1", label: "GPT-4.1" },
  { id: "gpt-4o-mini", label: "GPT-4o mini" },
  { id: "gpt-4o", label: "GPT-4o" },
];

export interface OpenAiSettings {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_MODELS?: string | undefined;
  OPENAI_TIMEOUT_MS?: number | undefined;
}

/**
 * The endpoints a server offers: `openai` when OPENAI_API_KEY or OPENAI_BASE_URL is set, then every entry
 * of the providers file in its order. A file entry named `openai` replaces the one the settings describe
 * (its key, when it gives none, is OPENAI_API_KEY), so OpenAI's models can carry prices.
 */
export function openAiEndpoints(settings: OpenAiSettings, file: ProvidersFile): OpenAiEndpoint[] {
  const endpoints: OpenAiEndpoint[] = [];
  const timeoutMs = settings.OPENAI_TIMEOUT_MS ?? DEFAULT_OPENAI_TIMEOUT_MS;
  if (!file.endpoints.has("openai") && (settings.OPENAI_API_KEY || settings.OPENAI_BASE_URL)) {
    endpoints.push({
      id: "openai",
      label: "OpenAI",
      baseURL: settings.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL,
      apiKey: settings.OPENAI_API_KEY ? { kind: "text", value: settings.OPENAI_API_KEY } : { kind: "none" },
      keySetting: "OPENAI_API_KEY",
      models: parseModelList(settings.OPENAI_MODELS, "OPENAI_MODELS", DEFAULT_OPENAI_MODELS),
      embeddingModels: [],
      timeoutMs,
    });
  }
  for (const [name, entry] of file.endpoints) {
    const fallbackKey = name === "openai" ? settings.OPENAI_API_KEY : undefined;
    endpoints.push(fromFile(name, entry, fallbackKey, timeoutMs));
  }
  return endpoints;
}

function fromFile(name: string, entry: OpenAiEndpointConfig, fallbackKey: string | undefined, timeoutMs: number): OpenAiEndpoint {
  const key = entry.apiKey ?? fallbackKey;
  const secret = key === undefined ? null : secretReference(key);
  return {
    id: name,
    label: entry.label ?? name,
    baseURL: entry.baseUrl,
    apiKey: key === undefined ? { kind: "none" } : secret !== null ? { kind: "secret", name: secret } : { kind: "text", value: key },
    keySetting: secret !== null ? `the secret ${secret}` : `WEFT_PROVIDERS_FILE (${name}.apiKey)`,
    models: entry.models.map((model) => ({
      id: model.id,
      label: model.label ?? model.id,
      ...(model.inputUsdPerMTok === undefined ? {} : { inputUsdPerMTok: model.inputUsdPerMTok }),
      ...(model.outputUsdPerMTok === undefined ? {} : { outputUsdPerMTok: model.outputUsdPerMTok }),
    })),
    embeddingModels: entry.embeddingModels ?? [],
    timeoutMs: entry.timeoutMs ?? timeoutMs,
  };
}

/** `WEFT_EMBEDDER=<provider>:<model>` resolved: which endpoint, which model, what dimension. */
export interface EmbedderChoice {
  endpoint: OpenAiEndpoint;
  model: string;
  dimension: number;
}

/**
 * Resolves `<provider>:<model>` against the endpoints: the dimension is the endpoint's
 * `embeddingModels` entry, else OpenAI's own for its models. Throws naming WEFT_EMBEDDER otherwise.
 */
export function embedderChoice(spec: string, endpoints: readonly OpenAiEndpoint[]): EmbedderChoice {
  const colon = spec.indexOf(":");
  const providerId = spec.slice(0, colon);
  const model = spec.slice(colon + 1);
  const endpoint = endpoints.find((candidate) => candidate.id === providerId);
  const fail = (why: string) => new WeftError("INVALID_PROVIDER_CONFIG", `WEFT_EMBEDDER=${spec}: ${why}`, { audience: "operational" });
  if (colon < 1 || model === "") throw fail("expected local, mistral or <provider>:<model>");
  if (!endpoint) throw fail(`no OpenAI-compatible provider "${providerId}" is configured (OPENAI_API_KEY, OPENAI_BASE_URL or WEFT_PROVIDERS_FILE)`);
  const dimension = endpoint.embeddingModels.find((entry) => entry.id === model)?.dimension ?? OPENAI_EMBEDDING_DIMENSIONS[model];
  if (dimension === undefined) throw fail(`the dimension of "${model}" is unknown: list it under ${providerId}.embeddingModels in WEFT_PROVIDERS_FILE`);
  return { endpoint, model, dimension };
}

/**
 * The key an endpoint's calls send. A secret is read at each call (so a replaced secret takes effect at
 * once); a missing one fails the call with PROVIDER_AUTH_FAILED naming it. Without a reader (the command
 * line has no secret store) a secret reference is refused at start.
 */
export function endpointKey(endpoint: OpenAiEndpoint, readSecret: SecretReader | null): ApiKeySource {
  const key = endpoint.apiKey;
  if (key.kind === "none") return null;
  if (key.kind === "text") return key.value;
  if (!readSecret) {
    throw new WeftError("INVALID_PROVIDER_CONFIG", `provider "${endpoint.id}" names the secret ${key.name}, but secrets are read from the API's database only (this program has none)`, { audience: "operational" });
  }
  return async () => {
    const value = await readSecret(key.name);
    if (value === null) throw new ProviderError("PROVIDER_AUTH_FAILED", `provider "${endpoint.id}" needs the secret ${key.name}, which does not exist (createSecret).`, { retryable: false });
    return value;
  };
}

/** The chat providers of the endpoints. */
export function createOpenAiProviders(endpoints: readonly OpenAiEndpoint[], readSecret: SecretReader | null): OpenAiLlmProvider[] {
  return endpoints.map(
    (endpoint) =>
      new OpenAiLlmProvider({ ...clientOptions(endpoint, readSecret), models: endpoint.models }),
  );
}

export function createOpenAiEmbedder(choice: EmbedderChoice, readSecret: SecretReader | null): OpenAiEmbedder {
  return new OpenAiEmbedder({ ...clientOptions(choice.endpoint, readSecret), model: choice.model, dimension: choice.dimension });
}

function clientOptions(endpoint: OpenAiEndpoint, readSecret: SecretReader | null) {
  return { id: endpoint.id, label: endpoint.label, baseURL: endpoint.baseURL, apiKey: endpointKey(endpoint, readSecret), keySetting: endpoint.keySetting, timeoutMs: endpoint.timeoutMs };
}

/** How an app's providers and embedders reach OpenAI-compatible endpoints: which ones, and where secrets are read. */
export interface OpenAiWiring {
  endpoints: readonly OpenAiEndpoint[];
  readSecret: SecretReader | null;
}

export const NO_OPENAI_ENDPOINTS: OpenAiWiring = { endpoints: [], readSecret: null };
