import { Field, ID, InputType, Int } from "type-graphql";

@InputType("SemanticCacheScopeInput", {
  description:
    "Which cache: a namespace (`namespace`), or a workflow's — a published version (`workflowId` + `version`) or the draft at one edit version (`workflowId` + `draftEditVersion`), optionally one llm node's own cache (`nodeId`).",
})
export class SemanticCacheScopeInput {
  @Field(() => String, { nullable: true, description: "A namespace cache_lookup / cache_store nodes name." })
  namespace?: string | null;

  @Field(() => ID, { nullable: true })
  workflowId?: string | null;

  @Field(() => Int, { nullable: true, description: "A published version's number." })
  version?: number | null;

  @Field(() => Int, { nullable: true, description: "The draft's cache as of this edit version (a run records the edit version it started from)." })
  draftEditVersion?: number | null;

  @Field(() => ID, { nullable: true, description: "One llm node's own cache (`cache` on the node) within that version." })
  nodeId?: string | null;
}
