import { Field, Float, ID, InputType, Int, registerEnumType } from "type-graphql";
import { SearchIntensityEnum } from "../common/search-intensity.type.js";
import type { SearchIntensity } from "@weft/engine";

export const ContentEncodingEnum = { TEXT: "TEXT", BASE64: "BASE64" } as const;
export type ContentEncoding = keyof typeof ContentEncodingEnum;

registerEnumType(ContentEncodingEnum, {
  name: "ContentEncoding",
  description: "How `content` is sent: TEXT as is, BASE64 for a file's bytes (PDF, DOCX, HTML, Markdown or UTF-8 text).",
});

@InputType("CreateKnowledgeBaseInput")
export class CreateKnowledgeBaseInput {
  @Field(() => String, { description: "Letters, digits, '_', '-' and '.', 1–64 characters; unique." })
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Int, { nullable: true, description: "Characters per chunk." })
  chunkSize?: number | null;

  @Field(() => Int, { nullable: true, description: "Characters repeated between neighbouring chunks." })
  chunkOverlap?: number | null;
}

@InputType("DocumentInput")
export class DocumentInput {
  @Field(() => String)
  title!: string;

  @Field(() => String)
  content!: string;

  @Field(() => String, { nullable: true, description: "The file's MIME type, if known. The content decides whether it is PDF, DOCX, HTML or text; for text, text/markdown (or a .md title) means Markdown." })
  mimeType?: string | null;

  @Field(() => ContentEncodingEnum, { nullable: true, description: "TEXT (default) or BASE64." })
  encoding?: ContentEncoding | null;
}

@InputType("SearchKnowledgeBaseInput")
export class SearchKnowledgeBaseInput {
  @Field(() => String, { description: "Knowledge-base name." })
  name!: string;

  @Field(() => String)
  query!: string;

  @Field(() => SearchIntensityEnum, { nullable: true, description: "top_k from the intensity (WEFT_TOPK_*); default MEDIUM, as for a model node." })
  intensity?: SearchIntensity | null;

  @Field(() => Int, { nullable: true, description: "Overrides the intensity's top_k (1..50)." })
  topK?: number | null;

  @Field(() => Float, { nullable: true, description: "Hybrid search weight, 0 = keyword only, 1 = vector only." })
  alpha?: number | null;
}

@InputType("KnowledgeBaseRef")
export class KnowledgeBaseRef {
  @Field(() => ID, { nullable: true })
  id?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;
}
