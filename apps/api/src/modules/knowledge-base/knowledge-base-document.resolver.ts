import { Arg, Args, Authorized, Ctx, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { EXPENSIVE } from "../common/field-cost.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { encodeOffsetCursor, PageInfo, PaginationArgs, readOffsetCursor, readPage } from "../common/pagination.js";
import { DocumentInput } from "./knowledge-base.input.js";
import { DocumentsPayload, KnowledgeBaseChunkConnection, RemoveDocumentPayload } from "./knowledge-base-payload.type.js";
import { KnowledgeBaseDocumentObject } from "./knowledge-base.type.js";
import type { KnowledgeBaseService } from "./knowledge-base.service.js";

/** The services these resolvers reach. */
type KnowledgeBaseContext = GraphQLContext<{ knowledgeBases: KnowledgeBaseService }>;

const WAIT_DESCRIPTION = "Answer only once every document is READY or FAILED (for scripts and tests).";

/** Documents: ingestion mutations and chunk browsing. */
@Resolver(() => KnowledgeBaseDocumentObject)
export class KnowledgeBaseDocumentResolver {
  @Authorized("write")
  @Mutation(() => DocumentsPayload, {
    description:
      "Adds text/plain or text/markdown documents (content as TEXT, or a file's bytes as BASE64), stores them PENDING " +
      "and answers at once; they are indexed in the background (follow ingestionProgress or each document's status).",
  })
  async addDocuments(
    @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string,
    @Arg("documents", () => [DocumentInput]) documents: DocumentInput[],
    @Arg("waitForIndexing", () => Boolean, { nullable: true, defaultValue: false, description: WAIT_DESCRIPTION }) waitForIndexing: boolean | null,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<DocumentsPayload> {
    const service = context.services.knowledgeBases;
    const outcome = await service.documents.add(knowledgeBaseId, documents, { waitForIndexing: waitForIndexing === true });
    if (!outcome.ok) return { knowledgeBase: null, documents: [], errors: outcome.errors };
    return { knowledgeBase: await service.find({ id: knowledgeBaseId }), ...outcome.value };
  }

  @Authorized("write")
  @Mutation(() => RemoveDocumentPayload, { description: "Removes a document and its chunks (cancelling its indexing if it runs)." })
  async removeDocument(@Arg("documentId", () => ID) documentId: string, @Ctx() context: KnowledgeBaseContext): Promise<RemoveDocumentPayload> {
    const outcome = await context.services.knowledgeBases.documents.remove(documentId);
    return outcome.ok ? { removedDocumentId: outcome.value, errors: [] } : { removedDocumentId: null, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => DocumentsPayload, {
    description:
      "Re-chunks and re-embeds every document with the configured embedder (also moves the knowledge base to it): " +
      "every document becomes PENDING and is indexed in the background.",
  })
  async reindexKnowledgeBase(
    @Arg("id", () => ID) id: string,
    @Arg("waitForIndexing", () => Boolean, { nullable: true, defaultValue: false, description: WAIT_DESCRIPTION }) waitForIndexing: boolean | null,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<DocumentsPayload> {
    const service = context.services.knowledgeBases;
    const outcome = await service.documents.reindex(id, { waitForIndexing: waitForIndexing === true });
    if (!outcome.ok) return { knowledgeBase: null, documents: [], errors: outcome.errors };
    return { knowledgeBase: await service.find({ id }), ...outcome.value };
  }

  @FieldResolver(() => KnowledgeBaseChunkConnection, {
    description: "The document's chunks in order, as indexed (empty unless READY).",
  })
  async chunks(
    @Root() document: KnowledgeBaseDocumentObject,
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<KnowledgeBaseChunkConnection> {
    return (await chunkPage(context, document.id, page)) ?? emptyChunkPage();
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => KnowledgeBaseChunkConnection, {
    nullable: true,
    description: "One document's chunks in order, as indexed (empty unless READY), page by page; null when the document does not exist.",
  })
  async documentChunks(
    @Arg("documentId", () => ID) documentId: string,
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Ctx() context: KnowledgeBaseContext,
  ): Promise<KnowledgeBaseChunkConnection | null> {
    return chunkPage(context, documentId, page);
  }
}

/** A page of a document's chunks; null when there is no such document. */
async function chunkPage(context: KnowledgeBaseContext, documentId: string, page: PaginationArgs): Promise<KnowledgeBaseChunkConnection | null> {
  const { size } = readPage({ first: page.first });
  const offset = readOffsetCursor(CHUNK_CURSOR, page.after);
  const result = await context.services.knowledgeBases.documents.chunks(documentId, offset, size);
  if (!result) return null;
  const pageInfo = new PageInfo();
  pageInfo.hasNextPage = offset + result.chunks.length < result.total;
  pageInfo.endCursor = result.chunks.length > 0 ? encodeOffset(offset + result.chunks.length) : null;
  return {
    edges: result.chunks.map((node, index) => ({ cursor: encodeOffset(offset + index + 1), node })),
    pageInfo,
    totalCount: result.total,
  };
}

function emptyChunkPage(): KnowledgeBaseChunkConnection {
  const pageInfo = new PageInfo();
  pageInfo.hasNextPage = false;
  pageInfo.endCursor = null;
  return { edges: [], pageInfo, totalCount: 0 };
}

/** Chunk cursors are positions in the document's chunk list ("the next chunk is number n"). */
const CHUNK_CURSOR = "chunk";

function encodeOffset(offset: number): string {
  return encodeOffsetCursor(CHUNK_CURSOR, offset);
}
