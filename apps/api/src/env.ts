import { isIP } from "node:net";
import { DEFAULT_TOP_K, type TopKByIntensity } from "@weft/engine";
import { parseHttpAllow, resolveChunkingOptions } from "@weft/providers";
import proxyAddr from "proxy-addr";
import { z } from "zod";

/**
 * WEFT_TRUST_PROXY, with the meanings of express's `trust proxy` setting: false (the socket address is
 * the client), true (the left-most X-Forwarded-For address), a hop count (trust that many proxies from
 * the socket inwards), or a list of trusted proxy addresses, CIDR ranges and names (loopback,
 * linklocal, uniquelocal).
 */
export type TrustProxySetting = boolean | number | string[];

/** Parses the variable's text; a list entry that is not an address, range or name throws (TypeError). */
export function parseTrustProxy(value: string): TrustProxySetting {
  const text = value.trim();
  if (text === "false") return false;
  if (text === "true") return true;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(",").map((item) => item.trim()).filter((item) => item.length > 0);
  proxyAddr.compile(list);
  return list;
}

/**
 * The only place that reads process.env. Every variable is listed in docs/api.md (configuration table);
 * add it there when you add it here.
 */

const integer = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback ? "true" : "false")
    .transform((value) => value === "true" || value === "1");
const list = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const envSchema = z.object({
  PORT: integer(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  WEFT_DATA_DIR: z.string().min(1).default("./.weft-data"),
  WEFT_AUTH: z.enum(["required", "disabled"]).default("required"),
  WEFT_ADMIN_KEY: z.string().min(24, "WEFT_ADMIN_KEY must be at least 24 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEFT_RUN_CONCURRENCY: integer(4, 1),
  WEFT_PROCESS_CONCURRENCY: integer(16, 1),
  WEFT_MAX_QUERY_DEPTH: integer(12, 1),
  WEFT_MAX_QUERY_COMPLEXITY: integer(50_000, 1),
  WEFT_MAX_BODY_BYTES: integer(1_048_576, 1024),
  /** Nesting depth of any JSON value: run values, inputs and GraphQL JSON arguments (VALUE_TOO_DEEP beyond; SPEC-V3 §1). */
  WEFT_MAX_VALUE_DEPTH: integer(64, 1),
  /** Text and JSON bytes one query or mutation may return (RESPONSE_TOO_LARGE beyond). */
  WEFT_MAX_RESPONSE_BYTES: integer(33_554_432, 1024),
  /** Rate limits per caller (API key, else client IP); 0 turns a limit off. */
  WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: integer(600),
  WEFT_RATE_LIMIT_RUNS_PER_MINUTE: integer(60),
  WEFT_MAX_WS_CONNECTIONS_PER_CALLER: integer(20),
  /** How long a valid key's caller is remembered, sparing a lookup per request (0: never); see auth-cache.ts. */
  WEFT_AUTH_CACHE_MS: integer(5000),
  /** How often open WebSockets' keys are checked for a revocation made by another process (the CLI). */
  WEFT_WS_KEY_RECHECK_SECONDS: integer(30, 1),
  /** Who may set X-Forwarded-For: false, true, a hop count, or proxy addresses/CIDRs (express `trust proxy`). */
  WEFT_TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, ctx) => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `expected true, false, a hop count or proxy addresses/CIDRs: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  /** Unset: true in embedded mode, false in server mode (a shared database gets no demo workflow unasked). */
  WEFT_SEED_DEMO: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true" || value === "1")),
  MISTRAL_API_KEY: z.string().min(1).optional(),
  MISTRAL_SERVER_URL: z.url().optional(),
  /** `id[=label],…`, parsed by @weft/providers (parseMistralModels); empty: its default list. */
  MISTRAL_MODELS: z.string().optional(),
  /** web_search nodes: enables the `tavily` provider (the `offline` corpus is always there). */
  TAVILY_API_KEY: z.string().min(1).optional(),
  /** Another Tavily-compatible endpoint. */
  TAVILY_SERVER_URL: z.url().optional(),
  TAVILY_TIMEOUT_MS: integer(30_000, 1),
  /** Enables the `openai` provider (OpenAI, or the server at OPENAI_BASE_URL) and `openai:<model>` embedders. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Another OpenAI-compatible server, with `/v1` (http://127.0.0.1:11434/v1); alone it enables `openai` without a key. */
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** `id[=label],…` models of the `openai` provider; empty: its default list. */
  OPENAI_MODELS: z.string().optional(),
  OPENAI_TIMEOUT_MS: integer(120_000, 1),
  /** Named OpenAI-compatible endpoints, their models and prices, and MCP servers (JSON; SPEC-V3 §3, docs/providers.md). */
  WEFT_PROVIDERS_FILE: z.string().min(1).optional(),
  /** One request to an MCP server (connect, tools/list, tools/call) at most this long: MCP_TIMEOUT. */
  WEFT_MCP_TIMEOUT_MS: integer(60_000, 1),
  /**
   * Host names, addresses and CIDR ranges the `http` node and `http` tools may reach although they are
   * not public (loopback, private, link-local, metadata: HTTP_DESTINATION_FORBIDDEN otherwise; SPEC-V3 §3).
   */
  WEFT_HTTP_ALLOW: list.transform((entries, ctx) => {
    const parsed = parseHttpAllow(entries);
    if (parsed.ok) return parsed.allow;
    for (const problem of parsed.problems) ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }),
  WEAVIATE_URL: z.url().optional(),
  WEAVIATE_GRPC_PORT: integer(50051, 1),
  WEAVIATE_API_KEY: z.string().min(1).optional(),
  /** `local`, `mistral`, or `<provider>:<model>` of an OpenAI-compatible provider (`openai:text-embedding-3-small`). */
  WEFT_EMBEDDER: z
    .string()
    .default("local")
    .refine((value) => value === "local" || value === "mistral" || /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}:[A-Za-z0-9._:/-]+$/.test(value), "expected local, mistral or <provider>:<model>"),
  WEFT_TOPK_LOW: integer(DEFAULT_TOP_K.LOW, 1),
  WEFT_TOPK_MEDIUM: integer(DEFAULT_TOP_K.MEDIUM, 1),
  WEFT_TOPK_HIGH: integer(DEFAULT_TOP_K.HIGH, 1),
  WEFT_PARSE_REPAIR: flag(true),
  /** Messages a thread keeps: when a turn is added, the oldest beyond this go; 0: no limit. */
  WEFT_THREAD_MAX_MESSAGES: integer(1000),
  /** Thread messages older than this many days are neither shown nor read by history nodes, and go at the next turn; 0: no limit. */
  WEFT_THREAD_MAX_AGE_DAYS: integer(0),
  /** Finished runs created more than this many days ago are deleted, with everything they stored, by the sweep; 0: kept. */
  WEFT_RUN_RETENTION_DAYS: integer(0),
  /** How often expired semantic-cache entries, thread messages past the age limit and runs past the retention are deleted, in seconds; 0: never. */
  WEFT_SWEEP_SECONDS: integer(3600),
  /** Weaviate hybrid weight (1 = vectors only, 0 = BM25 only) for model nodes and searchKnowledgeBase's default. */
  WEFT_HYBRID_ALPHA: z.coerce.number().min(0).max(1).default(0.75),
  /** Chunking defaults for new knowledge bases; unset overlap: min(120, size / 4) as the chunker does. */
  WEFT_CHUNK_SIZE: integer(800, 1),
  WEFT_CHUNK_OVERLAP: z.coerce.number().int().min(0).optional(),
  MISTRAL_TIMEOUT_MS: integer(120_000, 1),
  WEFT_PGVECTOR_EF_SEARCH: integer(100, 1),
  /**
   * Embedded database: semantic-cache entries held in the in-memory lookup index over all scopes (about
   * 1.3 KB each at 512 dimensions); 0: lookups always go to pgvector.
   */
  WEFT_CACHE_MEMORY_INDEX_ENTRIES: integer(250_000),
  CORS_ORIGINS: list,
  /**
   * Seals secrets the server reads back (webhook signing secrets): any text of at least 32 characters.
   * Unset: embedded mode keeps a generated one in <WEFT_DATA_DIR>/secret.key; server mode has none (no webhooks).
   */
  WEFT_SECRET_KEY: z.string().min(32, "WEFT_SECRET_KEY must be at least 32 characters (e.g. openssl rand -base64 32)").optional(),
  /** The API's address as callers reach it (https://weft.example.com): the base of webhook URLs; unset, the request's origin. */
  WEFT_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Server mode across processes: the run and ingestion queues, the event bus and the rate limits on Redis. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Prefix of every Redis key and channel, so deployments may share one Redis. */
  WEFT_REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, "letters, digits, _ . - (at most 40)").default("weft"),
  /** How long a worker's claim on a job lasts without renewal, and how often stalled jobs are looked for. */
  WEFT_QUEUE_LOCK_MS: integer(5_000, 500),
  /** What every value a run makes must stay within (with WEFT_MAX_VALUE_DEPTH; SPEC-V3 §1, docs/limits.md): handed to the engine once, in the run policy. */
  WEFT_MAX_NODE_OUTPUT_BYTES: integer(1_048_576, 1024),
  WEFT_MAX_RUN_BYTES: integer(67_108_864, 65_536),
  WEFT_MAX_EXPRESSION_COST: integer(1_000_000, 1000),
  /** Executions of one run (the first and its resumptions after a worker died) before it ends FAILED. */
  WEFT_RUN_MAX_ATTEMPTS: integer(3, 1),
  /** With Redis: how long a stopping worker lets its runs finish before handing the rest to other workers. */
  WEFT_SHUTDOWN_GRACE_MS: integer(10_000),
  /** OpenTelemetry traces over OTLP/HTTP: off unless one of the endpoints is set (the standard variables). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("weft"),
});

export type Env = Omit<z.infer<typeof envSchema>, "WEFT_SEED_DEMO"> & { WEFT_SEED_DEMO: boolean };
export type EnvName = keyof z.input<typeof envSchema>;
export type EnvSource = Partial<Record<string, string | undefined>>;

export class EnvError extends Error {
  readonly code = "ENV_INVALID";
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join("\n  ")}`);
    this.name = "EnvError";
  }
}

/**
 * Validates the environment. Tests pass `source: {}` so the shell's variables never leak in, and set
 * what they need through `overrides`.
 */
export function loadEnv(overrides: Partial<Record<EnvName, string>> = {}, source: EnvSource = process.env): Env {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(envSchema.shape)) {
    const value = overrides[name as EnvName] ?? source[name];
    // An empty variable means "not set", as in most shells' `VAR= cmd`.
    if (value !== undefined && value !== "") raw[name] = value;
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const env: Env = { ...parsed.data, WEFT_SEED_DEMO: parsed.data.WEFT_SEED_DEMO ?? parsed.data.DATABASE_URL === undefined };
  if (env.WEFT_AUTH === "disabled" && !isLoopbackHost(env.HOST)) {
    throw new EnvError([`WEFT_AUTH=disabled is allowed only when HOST is a loopback address (got "${env.HOST}")`]);
  }
  if (env.REDIS_URL && !env.DATABASE_URL) {
    throw new EnvError(["REDIS_URL: needs DATABASE_URL (server mode): the embedded database serves one process, which needs no Redis"]);
  }
  checkChunkDefaults(env);
  return env;
}

/** The chunker's own rules (size bounds, overlap at most half the size), named by variable. */
function checkChunkDefaults(env: Env): void {
  try {
    resolveChunkingOptions({ size: env.WEFT_CHUNK_SIZE, overlap: env.WEFT_CHUNK_OVERLAP });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const name = /overlap/i.test(message) ? "WEFT_CHUNK_OVERLAP" : "WEFT_CHUNK_SIZE";
    throw new EnvError([`${name}: ${message} (WEFT_CHUNK_SIZE=${env.WEFT_CHUNK_SIZE}, WEFT_CHUNK_OVERLAP=${env.WEFT_CHUNK_OVERLAP ?? "unset"})`]);
  }
}

/**
 * top_k per search intensity (WEFT_TOPK_*): the one table that runs (frozen into each run), knowledge-base
 * searches and serverInfo read.
 */
export function topKByIntensity(env: Pick<Env, "WEFT_TOPK_LOW" | "WEFT_TOPK_MEDIUM" | "WEFT_TOPK_HIGH">): TopKByIntensity {
  return { LOW: env.WEFT_TOPK_LOW, MEDIUM: env.WEFT_TOPK_MEDIUM, HIGH: env.WEFT_TOPK_HIGH };
}

export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  const kind = isIP(host);
  if (kind === 4) return host.startsWith("127.");
  if (kind === 6) return host === "::1";
  return false;
}
