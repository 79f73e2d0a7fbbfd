import type { LlmProviders, NodeTypeRegistry } from "@weft/engine";
import type { Env } from "./env.js";
import type { PrismaClient } from "./generated/prisma/client.js";
import type { Logger } from "./logger.js";

/**
 * What every service is constructed from (`new XService(deps)`); create-app builds it once.
 * Services never read process.env: they read `deps.env`.
 */
export interface ServiceDeps {
  env: Env;
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** Configured LLM providers by id (offline always, Mistral when MISTRAL_API_KEY is set). */
  llm: LlmProviders;
  logger: Logger;
}
