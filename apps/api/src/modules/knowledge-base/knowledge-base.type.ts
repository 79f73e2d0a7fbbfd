import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { TEXT_COST, unboundedListCost } from "../common/field-cost.js";

export const DocumentStatusEnum = {
  PENDING: "PENDING",
  INDEXING: "INDEXING",
  READY: "READY",
  FAILED: "FAILED",
} as const;
export type DocumentStatus = keyof typeof DocumentStatusEnum;

registerEnumType(DocumentStatusEnum, {
  name: "DocumentStatus",
  description: "PENDING (stored, waiting), INDEXING (chunking and embedding), READY (searchable), FAILED (see error; no chunk kept).",
});

@ObjectType("KnowledgeBase")
export class KnowledgeBaseObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "What workflows and runs name (`knowledgeBase`)." })
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String, { description: "Embedding model its vectors come from; queries with another are refused." })
  embeddingModel!: string;

  @Field(() => Int)
  dimension!: number;

  @Field(() => String, { description: 'Vector store holding its chunks ("pgvector" or "weaviate").' })
  store!: string;

  @Field(() => Int)
  chunkSize!: number;

  @Field(() => Int)
  chunkOverlap!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

@ObjectType("KnowledgeBaseDocument")
export class KnowledgeBaseDocumentObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  knowledgeBaseId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  mimeType!: string;

  @Field(() => String, { description: "SHA-256 of the content; a second document with the same hash is refused." })
  contentHash!: string;

  @Field(() => DocumentStatusEnum)
  status!: DocumentStatus;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => Int)
  chunkCount!: number;

  @Field(() => Int, { description: "Characters of content." })
  length!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

@ObjectType("ChunkSource", { description: "Where a chunk comes from; formatted into a model node's context as its label." })
export class ChunkSourceObject {
  @Field(() => ID)
  documentId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Int)
  chunkIndex!: number;

  @Field(() => Int, { nullable: true })
  page!: number | null;
}

@ObjectType("KnowledgeBaseChunk")
export class KnowledgeBaseChunkObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { complexity: TEXT_COST })
  text!: string;

  @Field(() => ChunkSourceObject)
  source!: ChunkSourceObject;
}

@ObjectType("SearchHit")
export class SearchHitObject {
  @Field(() => ID)
  chunkId!: string;

  @Field(() => String, { complexity: TEXT_COST })
  text!: string;

  @Field(() => Float, { description: "Similarity in [0, 1] (cosine, or the store's fused hybrid score)." })
  score!: number;

  @Field(() => ChunkSourceObject)
  source!: ChunkSourceObject;

  @Field(() => String, { description: 'The label a model node\'s context shows, e.g. "Handbook — chunk 3".' })
  label!: string;
}

@ObjectType("KnowledgeBaseSearchResult")
export class KnowledgeBaseSearchResultObject {
  @Field(() => String, { description: "Store that answered." })
  store!: string;

  @Field(() => Int)
  topK!: number;

  @Field(() => [SearchHitObject], { complexity: unboundedListCost })
  hits!: SearchHitObject[];
}

@ObjectType("IngestionProgress", { description: "One step of indexing one document of an addDocuments or reindex request." })
export class IngestionProgressObject {
  @Field(() => ID)
  knowledgeBaseId!: string;

  @Field(() => ID)
  documentId!: string;

  @Field(() => DocumentStatusEnum, { nullable: true, description: "The document's status after this step; null once it was removed." })
  status!: DocumentStatus | null;

  @Field(() => String, { nullable: true, description: "Why it FAILED." })
  error!: string | null;

  @Field(() => Int, { description: "Position of the document in its batch (0-based)." })
  documentIndex!: number;

  @Field(() => Int)
  documentCount!: number;

  @Field(() => String)
  title!: string;

  @Field(() => String, { description: "queued, extracting (PDF, DOCX, HTML), chunking, embedding, ready, failed or removed." })
  phase!: string;

  @Field(() => Int, { nullable: true, description: "Phase extracting of a PDF: pages read so far." })
  pagesDone?: number | null;

  @Field(() => Int, { nullable: true, description: "Phase extracting of a PDF: its pages." })
  pagesTotal?: number | null;

  @Field(() => Int)
  chunksDone!: number;

  @Field(() => Int)
  chunksTotal!: number;

  @Field(() => Date)
  at!: Date;
}
