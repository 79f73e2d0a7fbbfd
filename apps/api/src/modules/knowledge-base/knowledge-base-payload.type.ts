import { Field, ID, Int, ObjectType } from "type-graphql";
import { PageInfo } from "../common/pagination.js";
import { KnowledgeBaseChunkObject, KnowledgeBaseDocumentObject, KnowledgeBaseObject } from "./knowledge-base.type.js";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType({ implements: MutationPayload })
export class KnowledgeBasePayload extends MutationPayload {
  @Field(() => KnowledgeBaseObject, { nullable: true })
  knowledgeBase!: KnowledgeBaseObject | null;
}

@ObjectType({ implements: MutationPayload })
export class DeleteKnowledgeBasePayload extends MutationPayload {
  @Field(() => ID, { nullable: true })
  deletedKnowledgeBaseId!: string | null;
}

@ObjectType({
  implements: MutationPayload,
  description:
    "Documents indexed (READY) or kept as FAILED. `errors` holds input refusals (nothing stored) or, per document, DUPLICATE_DOCUMENT and INGESTION_FAILED with path [\"documents\", index].",
})
export class DocumentsPayload extends MutationPayload {
  @Field(() => KnowledgeBaseObject, { nullable: true })
  knowledgeBase!: KnowledgeBaseObject | null;

  @Field(() => [KnowledgeBaseDocumentObject])
  documents!: KnowledgeBaseDocumentObject[];
}

@ObjectType({ implements: MutationPayload })
export class RemoveDocumentPayload extends MutationPayload {
  @Field(() => ID, { nullable: true })
  removedDocumentId!: string | null;
}

@ObjectType("KnowledgeBaseChunkEdge")
export class KnowledgeBaseChunkEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => KnowledgeBaseChunkObject)
  node!: KnowledgeBaseChunkObject;
}

@ObjectType("KnowledgeBaseChunkConnection")
export class KnowledgeBaseChunkConnection {
  @Field(() => [KnowledgeBaseChunkEdge])
  edges!: KnowledgeBaseChunkEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int)
  totalCount!: number;
}

