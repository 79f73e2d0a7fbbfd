import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DOCUMENT_COST, TEXT_COST } from "../common/field-cost.js";
import { connectionTypes } from "../common/pagination.js";
import { TriggerKindEnum, type TriggerKind } from "../common/trigger-kind.type.js";
import { MutationPayload } from "../../errors/user-error.type.js";

export const RunStatusEnum = {
  QUEUED: "QUEUED",
  RUNNING: "RUNNING",
  WAITING: "WAITING",
  COMPLETED: "COMPLETED",
  FAILED: "FAILED",
  CANCELLED: "CANCELLED",
} as const;
export type RunStatusName = keyof typeof RunStatusEnum;
registerEnumType(RunStatusEnum, {
  name: "RunStatus",
  description: "QUEUED, RUNNING and WAITING runs are active; a WAITING run waits for a person (a human task) and no process holds it.",
});

export const NodeRunStatusEnum = {
  PENDING: "PENDING",
  RUNNING: "RUNNING",
  COMPLETED: "COMPLETED",
  FAILED: "FAILED",
  SKIPPED: "SKIPPED",
} as const;
registerEnumType(NodeRunStatusEnum, { name: "NodeRunStatus" });

@ObjectType("RunError", { description: "Why a run or node failed. `code` is stable." })
export class RunErrorObject {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType("NodeRun", { description: "One execution of a node within a run: one per (node, invocation)." })
export class NodeRunObject {
  @Field(() => String, { description: "The workflow node's id (node ids are unique across a workflow, bodies included)." })
  nodeId!: string;

  @Field(() => String, {
    description:
      'Which execution: "" at top level and in a loop\'s first iteration, "regen#2" in iteration 2 of loop regen, "perQuestion[1]" for item 1 of map node perQuestion, nested with "/".',
  })
  invocation!: string;

  @Field(() => String)
  nodeType!: string;

  @Field(() => String, { description: "Where it is in the list: pass it as nodeRuns(after:) for the ones that follow." })
  cursor!: string;

  @Field(() => NodeRunStatusEnum)
  status!: keyof typeof NodeRunStatusEnum;

  @Field(() => [String], { description: "Pre-node outputs, in edge creation order.", complexity: TEXT_COST })
  inputs!: string[];

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  renderedPrompt!: string | null;

  @Field(() => GraphQLJSON, { description: "Retrieved chunks with their scores and sources.", complexity: TEXT_COST })
  context!: unknown;

  @Field(() => String, { nullable: true, description: "Which vector store answered." })
  store!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  rawReply!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  description!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  output!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "The output as JSON when it is not a string (a grade's verdict, a map's list); `output` is its text.", complexity: TEXT_COST })
  value!: unknown;

  @Field(() => RunErrorObject, { nullable: true })
  error!: RunErrorObject | null;

  @Field(() => String, { nullable: true })
  provider!: string | null;

  @Field(() => String, { nullable: true })
  model!: string | null;

  @Field(() => Int)
  promptTokens!: number;

  @Field(() => Int)
  completionTokens!: number;

  @Field(() => Int)
  totalTokens!: number;

  @Field(() => Float, { nullable: true, description: "US dollars the node's priced model calls cost (prices from WEFT_PROVIDERS_FILE); null when none had a price." })
  costUsd!: number | null;

  @Field(() => Int, { description: "Provider attempts beyond the first, plus a parse repair if one was made." })
  retries!: number;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Float, { nullable: true })
  durationMs!: number | null;
}

@ObjectType("RunTrigger", { description: "The webhook or schedule that started a run (it may have been deleted since)." })
export class RunTriggerObject {
  @Field(() => ID)
  id!: string;

  @Field(() => TriggerKindEnum)
  kind!: TriggerKind;
}

@ObjectType("Run")
export class RunObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => String, { description: "The workflow's name when the run started (from its snapshot, so later renames do not change it)." })
  workflowName!: string;

  @Field(() => RunStatusEnum)
  status!: RunStatusName;

  @Field(() => Int, { nullable: true, description: "The published version the run executes; null for a run of the draft." })
  version!: number | null;

  @Field(() => Boolean, { description: "The run executes the draft (the workflow as it was when the run started), not a published version." })
  draft!: boolean;

  /** The run this one re-ran; read by the rerunOf field. */
  rerunOfId!: string | null;

  @Field(() => RunTriggerObject, { nullable: true, description: "What started the run: a webhook or a schedule; null for runs started through the API." })
  trigger!: RunTriggerObject | null;

  @Field(() => ID, { nullable: true, description: "The thread (conversation) the run belongs to; null when it runs on none, or its thread was deleted." })
  threadId!: string | null;

  @Field(() => ID, { nullable: true, description: "The experiment whose row this run is (SPEC-V3 §4); null for every other run." })
  experimentId!: string | null;

  @Field(() => GraphQLJSONObject, { description: "The run request as received.", complexity: TEXT_COST })
  request!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, {
    description: "What the run executes, frozen when it started (the engine's prepared run: graph, prompts, resolved settings, input contents). `nodes` and `edges` lift its graph.",
    complexity: DOCUMENT_COST,
  })
  snapshot!: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: "The output node's output.", complexity: TEXT_COST })
  result!: string | null;

  @Field(() => RunErrorObject, { nullable: true })
  error!: RunErrorObject | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The final state channels (weft.workflow/v2), when the workflow declares any and the run has ended.", complexity: TEXT_COST })
  state!: Record<string, unknown> | null;

  @Field(() => Int)
  promptTokens!: number;

  @Field(() => Int)
  completionTokens!: number;

  @Field(() => Int)
  totalTokens!: number;

  @Field(() => Float, { nullable: true, description: "US dollars the run's priced model calls cost, summed as its node runs end; null while none had a price (limits.maxCostUsd bounds it)." })
  costUsd!: number | null;

  @Field(() => Int, { description: "seq of the last event so far." })
  lastSeq!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Float, { nullable: true })
  durationMs!: number | null;
}

export const { Edge: RunEdge, Connection: RunConnection } = connectionTypes("Run", () => RunObject);

@ObjectType("RunStatusChange", { description: "Published whenever a run changes status." })
export class RunStatusChangeObject {
  @Field(() => ID)
  runId!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => Int, { nullable: true, description: "The published version the run executes; null for a run of the draft." })
  version!: number | null;

  @Field(() => Boolean, { description: "A run of the draft: while one is active, the workflow's graph cannot change." })
  draft!: boolean;

  @Field(() => RunStatusEnum)
  status!: RunStatusName;

  @Field(() => Date)
  at!: Date;

  @Field(() => Boolean, { description: "The run was deleted (deleteRun, or WEFT_RUN_RETENTION_DAYS); `status` is the one it had." })
  deleted!: boolean;
}

@ObjectType({ implements: MutationPayload })
export class RunWorkflowPayload extends MutationPayload {
  @Field(() => RunObject, { nullable: true, description: "The run, QUEUED; follow it with runEvents." })
  run!: RunObject | null;
}

@ObjectType({ implements: MutationPayload })
export class CancelRunPayload extends MutationPayload {
  @Field(() => RunObject, { nullable: true })
  run!: RunObject | null;
}

@ObjectType({ implements: MutationPayload })
export class DeleteRunPayload extends MutationPayload {
  @Field(() => ID, { nullable: true, description: "The deleted run's id." })
  deletedRunId!: string | null;
}
