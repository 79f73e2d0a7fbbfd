import { Arg, Args, Authorized, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { EXPENSIVE, SEARCH_COST } from "../common/field-cost.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { AppError } from "../../errors/app-error.js";
import { connectionTypes, PaginationArgs, type Page } from "../common/pagination.js";
import { CreateKnowledgeBaseInput, SearchKnowledgeBaseInput } from "./knowledge-base.input.js";
import { DeleteKnowledgeBasePayload, KnowledgeBasePayload } from "./knowledge-base-payload.type.js";
import { KnowledgeBaseDocumentObject, KnowledgeBaseObject, KnowledgeBaseSearchResultObject } from "./knowledge-base.type.js";
import type { KnowledgeBaseService } from "./knowledge-base.service.js";

/** The services these resolvers reach. */
type KnowledgeBaseContext = GraphQLContext<{ knowledgeBases: KnowledgeBaseService }>;

export const { Connection: KnowledgeBaseConnection } = connectionTypes("KnowledgeBase", () => KnowledgeBaseObject);
export const { Connection: KnowledgeBaseDocumentConnection } = connectionTypes(
  "KnowledgeBaseDocument",
  () => KnowledgeBaseDocumentObject,
);

/** Debug searches are bounded so a slow store cannot hold a request open forever. */
const SEARCH_TIMEOUT_MS = 30_000;

@Resolver(() => KnowledgeBaseObject)
export class KnowledgeBaseResolver {
  @Authorized("read")
  @Query(() => KnowledgeBaseConnection, { description: "Knowledge bases, newest first." })
  knowledgeBases(@Args(() => PaginationArgs) page: PaginationArgs, @Ctx() context: KnowledgeBaseContext): Promise<Page<KnowledgeBaseObject>> {
    return context.services.knowledgeBases.list(page);
  }

  @Authorized("read")
  @Query(() => KnowledgeBaseObject, { nullable: true, description: "By id or by name." })
  knowledgeBase(
    @Arg("id", () => ID, { nullable: true }) id: string | null,
    @Arg("name", () => String, { nullable: true }) name: string | null,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<KnowledgeBaseObject | null> {
    if (!id === !name) throw new AppError("VALIDATION_FAILED", "give either id or name");
    return context.services.knowledgeBases.find({ id, name });
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => KnowledgeBaseSearchResultObject, {
    description: "Searches a knowledge base the way a model node does, to test retrieval (debug).",
    complexity: ({ childComplexity }) => SEARCH_COST + childComplexity,
  })
  async searchKnowledgeBase(
    @Arg("input", () => SearchKnowledgeBaseInput) input: SearchKnowledgeBaseInput,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<KnowledgeBaseSearchResultObject> {
    const outcome = await context.services.knowledgeBases.search.search(input, AbortSignal.timeout(SEARCH_TIMEOUT_MS));
    if (outcome.ok) return outcome.value;
    const first = outcome.errors[0];
    throw new AppError(first?.code ?? "VALIDATION_FAILED", first?.message ?? "invalid search", { extensions: { path: first?.path } });
  }

  @Authorized("write")
  @Mutation(() => KnowledgeBasePayload, {
    description: "Creates an empty knowledge base recording the configured embedding model, its dimension and the vector store.",
  })
  async createKnowledgeBase(
    @Arg("input", () => CreateKnowledgeBaseInput) input: CreateKnowledgeBaseInput,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<KnowledgeBasePayload> {
    const outcome = await context.services.knowledgeBases.create(input);
    return outcome.ok ? { knowledgeBase: outcome.value, errors: [] } : { knowledgeBase: null, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => DeleteKnowledgeBasePayload, { description: "Deletes a knowledge base, its documents and its vectors." })
  async deleteKnowledgeBase(@Arg("id", () => ID) id: string, @Ctx() context: KnowledgeBaseContext): Promise<DeleteKnowledgeBasePayload> {
    const outcome = await context.services.knowledgeBases.delete(id);
    return outcome.ok ? { deletedKnowledgeBaseId: outcome.value, errors: [] } : { deletedKnowledgeBaseId: null, errors: outcome.errors };
  }

  @FieldResolver(() => Int)
  async documentCount(@Root() kb: KnowledgeBaseObject, @Ctx() context: KnowledgeBaseContext): Promise<number> {
    return (await context.services.knowledgeBases.documents.counts(kb.id)).documents;
  }

  @FieldResolver(() => Int, { description: "Chunks of its READY documents." })
  async chunkCount(@Root() kb: KnowledgeBaseObject, @Ctx() context: KnowledgeBaseContext): Promise<number> {
    return (await context.services.knowledgeBases.documents.counts(kb.id)).chunks;
  }

  @FieldResolver(() => KnowledgeBaseDocumentConnection, { description: "Documents, newest first, with their ingestion status." })
  documents(
    @Root() kb: KnowledgeBaseObject,
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<Page<KnowledgeBaseDocumentObject>> {
    return context.services.knowledgeBases.documents.list(kb.id, page);
  }
}
