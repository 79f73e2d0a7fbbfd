import { DEFAULT_INTENSITY, type SearchIntensity, type TopKByIntensity } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { KnowledgeBaseRetriever } from "../../retrieval/knowledge-base-retriever.js";
import { topKByIntensity } from "../../env.js";
import type { ServiceDeps } from "../../service-deps.js";
import { checkSearch } from "./knowledge-base-input.validation.js";
import { toSearchHit } from "./knowledge-base.mapper.js";
import type { KnowledgeBaseSearchResultObject } from "./knowledge-base.type.js";
import { operational } from "../../errors/operational.js";
import type { RetrievalSetup } from "./retrieval-setup.js";
import { userError, type UserError } from "../../errors/user-error.type.js";

export interface SearchRequest {
  name: string;
  query: string;
  intensity?: SearchIntensity | null;
  topK?: number | null;
  alpha?: number | null;
}

/**
 * The debug search: the same retriever model nodes use (the knowledge base's own embedder and store),
 * with top_k from the intensity (a model node's default, MEDIUM, when none is given) unless top_k is
 * given, and an adjustable hybrid alpha.
 */
export class KnowledgeBaseSearchService {
  private readonly db: PrismaClient;
  private readonly topK: TopKByIntensity;

  constructor(
    deps: Pick<ServiceDeps, "db" | "env">,
    private readonly retrieval: RetrievalSetup,
  ) {
    this.db = deps.db;
    this.topK = topKByIntensity(deps.env);
  }

  async search(request: SearchRequest, signal: AbortSignal): Promise<{ ok: true; value: KnowledgeBaseSearchResultObject } | { ok: false; errors: UserError[] }> {
    const invalid = checkSearch(request);
    if (invalid.length > 0) return { ok: false, errors: invalid };
    const exists = await this.db.knowledgeBase.findUnique({ where: { name: request.name }, select: { id: true } });
    if (!exists) {
      return { ok: false, errors: [userError("NOT_FOUND", `knowledge base "${request.name}" does not exist`, { path: ["input", "name"] })] };
    }
    const topK = request.topK ?? this.topK[request.intensity ?? DEFAULT_INTENSITY];
    const retriever = new KnowledgeBaseRetriever({
      lookup: (name) => this.db.knowledgeBase.findUnique({ where: { name } }),
      embedders: this.retrieval.embedders,
      stores: this.retrieval.stores,
      // The same default as model-node retrieval (WEFT_HYBRID_ALPHA).
      alpha: request.alpha ?? this.retrieval.alpha,
    });
    const result = await operational(() => retriever.retrieve(request.name, request.query, topK, signal));
    return { ok: true, value: { store: result.store, topK, hits: result.chunks.map(toSearchHit) } };
  }
}
