import { Field, Float, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "The embedder new knowledge bases are created with (WEFT_EMBEDDER)." })
export class EmbedderSettings {
  @Field(() => String, { description: 'Model id recorded on each knowledge base, e.g. "weft-local-hash-v1" or "mistral-embed".' })
  model!: string;

  @Field(() => Int)
  dimension!: number;
}

@ObjectType({ description: "Chunks a model node retrieves per search intensity (WEFT_TOPK_LOW/MEDIUM/HIGH)." })
export class TopKSettings {
  @Field(() => Int)
  low!: number;

  @Field(() => Int)
  medium!: number;

  @Field(() => Int)
  high!: number;
}

@ObjectType({ description: "How knowledge bases are stored and searched on this server." })
export class RetrievalSettings {
  @Field(() => String, { description: 'Vector store of new knowledge bases: "pgvector" (in the database) or "weaviate" (WEAVIATE_URL).' })
  vectorStore!: string;

  @Field(() => [String], { description: "Every store this server can search (older knowledge bases keep theirs)." })
  availableStores!: string[];

  @Field(() => EmbedderSettings)
  embedder!: EmbedderSettings;

  @Field(() => TopKSettings)
  topK!: TopKSettings;

  @Field(() => Float, { description: "Weaviate hybrid weight, 1 = vectors only, 0 = keywords only (WEFT_HYBRID_ALPHA); pgvector ignores it." })
  hybridAlpha!: number;

  @Field(() => Int, { description: "Default chunk size of new knowledge bases, in characters (WEFT_CHUNK_SIZE)." })
  chunkSize!: number;

  @Field(() => Int, { description: "Default chunk overlap of new knowledge bases, in characters (WEFT_CHUNK_OVERLAP)." })
  chunkOverlap!: number;

  @Field(() => Int, { description: "HNSW search breadth of the pgvector store (WEFT_PGVECTOR_EF_SEARCH)." })
  pgvectorEfSearch!: number;
}

@ObjectType({ description: "How runs execute on this server." })
export class ExecutionSettings {
  @Field(() => Int, { description: "Nodes of one run executing at once (WEFT_RUN_CONCURRENCY)." })
  runConcurrency!: number;

  @Field(() => Int, { description: "Node executions and runs at once across the process (WEFT_PROCESS_CONCURRENCY)." })
  processConcurrency!: number;

  @Field(() => Boolean, { description: "A reply that does not parse is asked for once more with the parser's message (WEFT_PARSE_REPAIR)." })
  parseRepair!: boolean;

  @Field(() => Int, { description: "Per-request limit of Mistral calls in milliseconds (MISTRAL_TIMEOUT_MS)." })
  providerTimeoutMs!: number;
}
