import { parseHttpAllow } from "@weft/providers";
import { z } from "zod";

/** The only module that reads process.env. Every variable is listed in docs/cli.md. */

const envSchema = z.object({
  /** Enables the Mistral provider. */
  MISTRAL_API_KEY: z.string().min(1).optional(),
  /** Another Mistral-compatible endpoint (default https://api.mistral.ai). */
  MISTRAL_SERVER_URL: z.url().optional(),
  /** `id[=label],…` models offered by the Mistral provider; empty: its default list. */
  MISTRAL_MODELS: z.string().optional(),
  /** Enables the `openai` provider (OpenAI, or the server at OPENAI_BASE_URL). */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Another OpenAI-compatible server, with `/v1`; alone it enables `openai` without a key. */
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** `id[=label],…` models of the `openai` provider; empty: its default list. */
  OPENAI_MODELS: z.string().optional(),
  /** Named OpenAI-compatible endpoints with their models (JSON, as for the API; no secret references here). */
  WEFT_PROVIDERS_FILE: z.string().min(1).optional(),
  /** Enables the `tavily` web search provider for web_search nodes. */
  TAVILY_API_KEY: z.string().min(1).optional(),
  /** Another Tavily-compatible endpoint (default https://api.tavily.com). */
  TAVILY_SERVER_URL: z.url().optional(),
  /** Time limit of one Tavily search, in milliseconds. */
  TAVILY_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  /** `--thread` files keep at most this many messages (the oldest go first); 0: no limit. */
  WEFT_THREAD_MAX_MESSAGES: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  /** `--thread` files drop messages older than this many days; 0: no limit. */
  WEFT_THREAD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** `weft eval`: the Weft API it runs experiments on (the server, or its `/graphql` endpoint). */
  WEFT_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** `weft eval`: the API key it sends (`Authorization: Bearer`); scopes read, write and run. */
  WEFT_API_KEY: z.string().min(1).optional(),
  /** Hosts, addresses and CIDR ranges `http` nodes and tools may reach although they are not public (as for the API). */
  WEFT_HTTP_ALLOW: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const parsed = parseHttpAllow((text ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== ""));
      if (parsed.ok) return parsed.allow;
      for (const problem of parsed.problems) ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }),
  /** Nodes of one run executing at once. */
  WEFT_CONCURRENCY: z.coerce.number().int().min(1).max(1024).optional(),
});

export type CliEnv = z.infer<typeof envSchema>;

export class CliEnvError extends Error {
  readonly code = "ENV_INVALID";
}

/** Empty strings count as unset, as shells make it easy to export a variable with no value. */
export function loadEnv(source: Record<string, string | undefined> = process.env): CliEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new CliEnvError(`invalid environment: ${problems.join("; ")}`);
}
