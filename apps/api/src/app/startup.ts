import type { VectorStore } from "@weft/engine";
import type { Env } from "../env.js";
import type { Logger } from "../logger.js";
import type { RetrievalSetup } from "../modules/knowledge-base/index.js";
import { insertWorkflow } from "../modules/workflow/index.js";
import type { Services } from "../services.js";
import { demoWorkflow } from "./demo-workflow.js";
import { servesApi, type ProcessRole } from "./process-role.js";

/**
 * What happens once at start, before the server accepts requests. A single process (no Redis) ends the
 * runs an earlier one left active; with Redis other processes may be executing them, and the queue's
 * stalled-job check and the reconciler take care of those whose worker stopped.
 */
export async function startupTasks(context: { env: Env; role: ProcessRole; services: Services; logger: Logger }): Promise<void> {
  const { env, services, logger } = context;
  if (!env.REDIS_URL) await services.runs.recoverInterrupted();
  if (!env.REDIS_URL) await services.experiments.recoverInterrupted();
  if (!servesApi(context.role)) return;
  // With Redis another process may be indexing those documents right now: recovering them here would
  // remove its chunks. There the next pass over their knowledge base takes them over (the stalled job
  // comes back to the queue, or the reconciler starts a pass).
  if (!env.REDIS_URL) {
    const requeued = await services.knowledgeBases.documents.recoverInterrupted();
    if (requeued > 0) logger.info({ knowledgeBases: requeued }, "re-queued documents left unindexed by an earlier stop");
  }
  if (env.WEFT_ADMIN_KEY) {
    const added = await services.apiKeys.ensureKey(env.WEFT_ADMIN_KEY, "admin (WEFT_ADMIN_KEY)", ["admin"]);
    if (added) logger.info("stored the admin key given in WEFT_ADMIN_KEY");
  }
  if (env.WEFT_AUTH === "required" && !env.WEFT_ADMIN_KEY && (await services.apiKeys.list(false)).length === 0) {
    logger.warn(
      "no API key exists yet: create one with `pnpm --filter @weft/api run create-key --name admin --scopes admin` " +
        "or start with WEFT_ADMIN_KEY set",
    );
  }
  if (env.WEFT_SEED_DEMO) await seedDemo(services, logger);
}

/**
 * Says at start which vector stores this server has, and whether the one new knowledge bases go to
 * answers (Weaviate: its REST URL and its gRPC port). A store that does not answer is a warning, not a
 * refusal: it may come up after the API; /readyz reports it until it does.
 */
export async function checkVectorStores(retrieval: Pick<RetrievalSetup, "store" | "stores" | "unavailable">, logger: Logger): Promise<void> {
  const available = retrieval.stores.map((store) => store.id);
  if (retrieval.unavailable) logger.warn({ code: "VECTOR_STORE_NOT_CONFIGURED", availableStores: available }, retrieval.unavailable);
  else if (!available.includes("pgvector")) {
    logger.info({ availableStores: available }, "pgvector is not available in this PostgreSQL (no `vector` extension); knowledge bases use Weaviate");
  }
  const store = retrieval.store as VectorStore & { ready?: () => Promise<void> };
  if (!store.ready || retrieval.unavailable) return;
  try {
    await store.ready();
    logger.info({ store: store.id }, "the vector store for new knowledge bases answers");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "VECTOR_STORE_UNAVAILABLE";
    logger.warn({ code, store: store.id }, `the vector store does not answer at start: ${(error as Error).message}`);
  }
}

async function seedDemo(services: Services, logger: Logger): Promise<void> {
  const db = services.runs.deps.db;
  if ((await db.workflow.count()) > 0) return;
  const workflow = demoWorkflow();
  const row = await db.$transaction((tx) =>
    insertWorkflow(tx, workflow, "Seeded on first start. Every model node uses the offline echo test model."),
  );
  logger.info({ workflowId: row.id }, "seeded the demo workflow");
}
