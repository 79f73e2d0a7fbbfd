import { WeftError } from "@weft/engine";
import { z } from "zod";
import { isModelId } from "../chat/model-list.js";

/**
 * WEFT_PROVIDERS_FILE (SPEC-V3 §3): named OpenAI-compatible endpoints with their models and prices, and
 * (under `"mcp"`) the MCP servers. Parsed and validated once, at start, here: a mistake stops the server
 * with every problem and its path, before anything runs. Each app reads the file and hands the text over.
 */

/** What a provider's name may be: it is what nodes' `provider` field names. */
export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Names the file cannot take: the built-in providers, and the MCP section. */
export const RESERVED_PROVIDER_NAMES: readonly string[] = ["offline", "mistral", "mcp"];

const price = z.number().min(0).max(100_000);

const modelEntry = z.strictObject({
  id: z.string().refine(isModelId, "a model id is letters, digits and . _ : / -").max(200),
  label: z.string().min(1).max(200).optional(),
  inputUsdPerMTok: price.optional().meta({ description: "US dollars per million prompt tokens" }),
  outputUsdPerMTok: price.optional().meta({ description: "US dollars per million completion tokens" }),
});

const embeddingModelEntry = z.strictObject({
  id: z.string().refine(isModelId, "a model id is letters, digits and . _ : / -").max(200),
  dimension: z.int().min(1).max(65_536),
});

const openAiEndpointSchema = z.strictObject({
  kind: z.literal("openai"),
  /** With `/v1`: what the SDK's baseURL takes (http://127.0.0.1:11434/v1 for Ollama). */
  baseUrl: z.url({ protocol: /^https?$/ }),
  label: z.string().min(1).max(100).optional(),
  /** Text, or `{secret.NAME}`; absent: no Authorization header (local servers without keys). */
  apiKey: z.string().min(1).max(4096).optional(),
  models: z.array(modelEntry).min(1).max(500),
  /** Models for WEFT_EMBEDDER=<name>:<model>, with their vector dimension. */
  embeddingModels: z.array(embeddingModelEntry).max(100).optional(),
  timeoutMs: z.int().min(1).max(3_600_000).optional(),
});

export type OpenAiEndpointConfig = z.infer<typeof openAiEndpointSchema>;
export type ModelEntry = z.infer<typeof modelEntry>;

export interface ProvidersFile {
  /** Named endpoints, in the file's order. */
  endpoints: ReadonlyMap<string, OpenAiEndpointConfig>;
  /** The `"mcp"` section as written: the MCP client validates it (its own schema). */
  mcp: unknown;
}

export const EMPTY_PROVIDERS_FILE: ProvidersFile = { endpoints: new Map(), mcp: undefined };

/** The most bytes the file may hold: it is configuration, not data. */
export const MAX_PROVIDERS_FILE_BYTES = 1_048_576;

/**
 * Parses the file's text (`source` names it in messages). Throws WeftError INVALID_PROVIDER_CONFIG listing
 * every problem with its path: `WEFT_PROVIDERS_FILE (/etc/weft/providers.json): ollama.models[0].id: …`.
 */
export function parseProvidersFile(text: string, source: string): ProvidersFile {
  const fail = (problems: string[]) => new WeftError("INVALID_PROVIDER_CONFIG", `WEFT_PROVIDERS_FILE (${source}): ${problems.join("; ")}`, { audience: "operational" });
  if (Buffer.byteLength(text, "utf8") > MAX_PROVIDERS_FILE_BYTES) throw fail([`larger than ${MAX_PROVIDERS_FILE_BYTES} bytes`]);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw fail([`not JSON: ${(error as Error).message}`]);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw fail(["must be a JSON object of named providers"]);
  const problems: string[] = [];
  const endpoints = new Map<string, OpenAiEndpointConfig>();
  for (const [name, value] of Object.entries(raw)) {
    if (name === "mcp") continue;
    if (!PROVIDER_NAME.test(name)) problems.push(`${JSON.stringify(name)}: a provider name is 1–64 letters, digits and _ . - (starting with a letter or digit)`);
    else if (RESERVED_PROVIDER_NAMES.includes(name)) problems.push(`${name}: the name belongs to a built-in provider`);
    const parsed = openAiEndpointSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${[name, ...issue.path.map(String)].join(".")}: ${issue.message}`);
      continue;
    }
    problems.push(...duplicateModels(name, parsed.data));
    endpoints.set(name, parsed.data);
  }
  if (problems.length > 0) throw fail(problems);
  return { endpoints, mcp: (raw as Record<string, unknown>)["mcp"] };
}

function duplicateModels(name: string, endpoint: OpenAiEndpointConfig): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  endpoint.models.forEach((model, index) => {
    if (seen.has(model.id)) problems.push(`${name}.models[${index}].id: "${model.id}" is listed twice`);
    seen.add(model.id);
  });
  return problems;
}
