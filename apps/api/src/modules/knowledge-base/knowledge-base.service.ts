import { randomUUID } from "node:crypto";
import { resolveChunkingOptions } from "@weft/providers";
import { Prisma, type KnowledgeBase as KnowledgeBaseRow, type PrismaClient } from "../../generated/prisma/client.js";
import { AppError } from "../../errors/app-error.js";
import { operational, operationalSync } from "../../errors/operational.js";
import { isUuid } from "../common/uuid.js";
import { createKnowledgeBaseCollection, dropKnowledgeBaseCollection } from "../../retrieval/ingestion.service.js";
import { storeFor } from "../../retrieval/knowledge-base-record.js";
import type { ServiceDeps } from "../../service-deps.js";
import { topKByIntensity } from "../../env.js";
import { afterCursorWhere, buildPage, readPage, type Page } from "../common/pagination.js";
import { EmbedderSettings, RetrievalSettings, TopKSettings } from "../common/server-settings.type.js";
import type { CreateKnowledgeBaseInput } from "./knowledge-base.input.js";
import { checkChunking, checkKnowledgeBaseName, KNOWLEDGE_BASE_LIMITS } from "./knowledge-base-input.validation.js";
import { toIndexSettings, toKnowledgeBaseObject } from "./knowledge-base.mapper.js";
import type { KnowledgeBaseObject } from "./knowledge-base.type.js";
import { KnowledgeBaseDocumentService } from "./knowledge-base-document.service.js";
import { KnowledgeBaseSearchService } from "./knowledge-base-search.service.js";
import type { RetrievalSetup } from "./retrieval-setup.js";
import type { EventBus, IngestionProgressMessage } from "../../pubsub.js";
import { IngestionProgressChannel } from "./ingestion-progress.js";
import type { IngestionQueue, IngestionWorker } from "../../queue/ingestion-queue.js";
import { InProcessIngestionQueue } from "../../queue/in-process-ingestion-queue.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";

/** Knowledge bases indexed at once per process (documents of one knowledge base go one at a time). */
const INGESTION_CONCURRENCY = 2;


/** Knowledge bases: list, read, create (recording embedder and store), delete. */
export class KnowledgeBaseService {
  readonly documents: KnowledgeBaseDocumentService;
  readonly search: KnowledgeBaseSearchService;
  private readonly db: PrismaClient;
  private readonly env: ServiceDeps["env"];
  readonly #progress: IngestionProgressChannel | null;

  constructor(
    deps: Pick<ServiceDeps, "db" | "env" | "logger">,
    private readonly retrieval: RetrievalSetup,
    bus: EventBus | null = null,
    createQueue: (worker: IngestionWorker) => IngestionQueue = (worker) =>
      new InProcessIngestionQueue({ worker, concurrency: INGESTION_CONCURRENCY, logger: deps.logger }),
  ) {
    this.db = deps.db;
    this.env = deps.env;
    this.#progress = bus && new IngestionProgressChannel(bus);
    this.documents = new KnowledgeBaseDocumentService(deps, retrieval, this.#progress, createQueue);
    this.search = new KnowledgeBaseSearchService(deps, retrieval);
  }

  /**
   * Ingestion progress of one knowledge base (the `ingestionProgress` subscription): the current state of
   * its unfinished documents first, then live steps.
   */
  async streamProgress(knowledgeBaseId: string): Promise<AsyncIterableIterator<IngestionProgressMessage>> {
    if (!this.#progress) throw new AppError("NOT_AVAILABLE", "ingestion progress is not published by this server");
    if (!(await this.find({ id: knowledgeBaseId }))) {
      throw new AppError("NOT_FOUND", `knowledge base "${knowledgeBaseId}" does not exist`, { extensions: { id: knowledgeBaseId } });
    }
    return this.#progress.stream(knowledgeBaseId, () => this.documents.unfinished(knowledgeBaseId));
  }

  /** Stops indexing (documents being indexed go back to PENDING and are re-queued at the next start). */
  close(): Promise<void> {
    return this.documents.queue.close();
  }

  /** Newest first. */
  async list(args: { first?: number | null; after?: string | null }): Promise<Page<KnowledgeBaseObject>> {
    const page = readPage(args);
    const [rows, totalCount] = await Promise.all([
      this.db.knowledgeBase.findMany({
        where: page.after ? afterCursorWhere("createdAt", page.after) : {},
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: page.size + 1,
      }),
      this.db.knowledgeBase.count(),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toKnowledgeBaseObject);
  }

  /** By id or by name; null when neither matches. */
  async find(ref: { id?: string | null; name?: string | null }): Promise<KnowledgeBaseObject | null> {
    const row = await this.findRow(ref);
    return row && toKnowledgeBaseObject(row);
  }

  async findRow(ref: { id?: string | null; name?: string | null }): Promise<KnowledgeBaseRow | null> {
    if (ref.id) return isUuid(ref.id) ? this.db.knowledgeBase.findUnique({ where: { id: ref.id } }) : null;
    if (ref.name) return this.db.knowledgeBase.findUnique({ where: { name: ref.name } });
    return null;
  }

  /**
   * Records the configured embedder's model and dimension and the store, creates the store collection,
   * then the row; if the row cannot be written (the name was taken meanwhile) the collection is dropped.
   */
  async create(input: CreateKnowledgeBaseInput): Promise<Outcome<KnowledgeBaseObject>> {
    const name = input.name.trim();
    const description = input.description ?? "";
    const errors = checkKnowledgeBaseName(name, ["input", "name"]);
    if (description.length > KNOWLEDGE_BASE_LIMITS.maxDescriptionLength) {
      errors.push(userError("LIMIT_EXCEEDED", `description is longer than ${KNOWLEDGE_BASE_LIMITS.maxDescriptionLength} characters`, { path: ["input", "description"] }));
    }
    const chunking = checkChunking(...this.chunkingRequest(input));
    if (!chunking.ok) errors.push(...chunking.errors);
    if (errors.length > 0 || !chunking.ok) return { ok: false, errors };
    if (await this.db.knowledgeBase.findUnique({ where: { name }, select: { id: true } })) return { ok: false, errors: [nameTaken(name)] };
    const { embedder, store, unavailable } = this.retrieval;
    if (unavailable) throw new AppError("VECTOR_STORE_NOT_CONFIGURED", unavailable, { audience: "operational" });
    const record = { id: randomUUID(), name, embeddingModel: embedder.model, dimension: embedder.dimension, store: store.id };
    await operational(() => createKnowledgeBaseCollection(record, store));
    try {
      const row = await this.db.knowledgeBase.create({
        data: { ...record, description, chunkSize: chunking.value.size, chunkOverlap: chunking.value.overlap },
      });
      return { ok: true, value: toKnowledgeBaseObject(row) };
    } catch (error) {
      await dropKnowledgeBaseCollection(record, store).catch(() => undefined);
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return { ok: false, errors: [nameTaken(name)] };
      throw error;
    }
  }

  /** What new knowledge bases get and how searches run (serverInfo.retrieval). */
  settings(): RetrievalSettings {
    const { embedder, store, stores, alpha } = this.retrieval;
    const chunking = resolveChunkingOptions({ size: this.env.WEFT_CHUNK_SIZE, overlap: this.env.WEFT_CHUNK_OVERLAP });
    const topK = topKByIntensity(this.env);
    return Object.assign(new RetrievalSettings(), {
      vectorStore: store.id,
      availableStores: stores.map((each) => each.id),
      embedder: Object.assign(new EmbedderSettings(), { model: embedder.model, dimension: embedder.dimension }),
      topK: Object.assign(new TopKSettings(), { low: topK.LOW, medium: topK.MEDIUM, high: topK.HIGH }),
      hybridAlpha: alpha,
      chunkSize: chunking.size,
      chunkOverlap: chunking.overlap,
      pgvectorEfSearch: this.env.WEFT_PGVECTOR_EF_SEARCH,
    });
  }

  /**
   * What the input asks for, completed from WEFT_CHUNK_SIZE / WEFT_CHUNK_OVERLAP. A size given without an
   * overlap gets the chunker's derived overlap, not the configured one (which may not fit a smaller size).
   */
  private chunkingRequest(input: CreateKnowledgeBaseInput): [number, number | undefined] {
    if (input.chunkSize != null) return [input.chunkSize, input.chunkOverlap ?? undefined];
    return [this.env.WEFT_CHUNK_SIZE, input.chunkOverlap ?? this.env.WEFT_CHUNK_OVERLAP];
  }

  /** Cancels its indexing, deletes the row (documents cascade) and then the store collection. */
  async delete(id: string): Promise<Outcome<string>> {
    const row = await this.findRow({ id });
    if (!row) return { ok: false, errors: [userError("NOT_FOUND", `knowledge base "${id}" does not exist`, { path: ["id"] })] };
    const store = operationalSync(() => storeFor(toIndexSettings(row), this.retrieval.stores));
    await this.documents.queue.cancel(id, "the knowledge base was deleted");
    await this.db.knowledgeBase.delete({ where: { id } });
    await operational(() => dropKnowledgeBaseCollection(toIndexSettings(row), store));
    return { ok: true, value: id };
  }
}

function nameTaken(name: string): UserError {
  return userError("CONFLICT", `a knowledge base named "${name}" already exists`, { path: ["input", "name"] });
}
