import { AGENT_RUN_EVENT_TYPES, HUMAN_RUN_EVENT_TYPES, PIPELINE_RUN_EVENT_TYPES, RUN_EVENT_TYPES } from "@weft/engine";
import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, InterfaceType, ObjectType, registerEnumType } from "type-graphql";
import { TEXT_COST } from "../common/field-cost.js";
import { RunErrorObject } from "./run.type.js";

/**
 * The run events in GraphQL: the interface `RunEvent` with the fields every event has, the interface
 * `NodeEvent` for the events about one execution of a node, and one object type per event kind with
 * exactly that kind's fields (run-event-kinds.type.ts). Clients select a kind's fields with fragments
 * (`... on NodeCompletedEvent { output details { usage { totalTokens } } }`) and switch on `__typename`.
 *
 * Until the deprecation period ends, `RunEvent` also keeps the lifted fields of the former single type
 * (every field of every kind, nullable) and `payload`. A kind that has one of those fields redeclares it
 * with the same type, so a client may select both the deprecated field and the kind's in one query;
 * every field name has one type across all kinds, so fragments on several kinds never conflict.
 */

/** The seed-000 events, then those weft.workflow/v2 runs add (SPEC-V2 §8), then those of human steps (SPEC-V3 §2) and agents (SPEC-V3 §3). */
const EVENT_TYPES = [...RUN_EVENT_TYPES, ...PIPELINE_RUN_EVENT_TYPES, ...HUMAN_RUN_EVENT_TYPES, ...AGENT_RUN_EVENT_TYPES] as const;
export type RunEventTypeName = (typeof EVENT_TYPES)[number];
export const RunEventTypeEnum = Object.fromEntries(EVENT_TYPES.map((type) => [type, type])) as { [K in RunEventTypeName]: K };
registerEnumType(RunEventTypeEnum, { name: "RunEventType" });

/** The GraphQL object type of each event kind: `NODE_COMPLETED` → `NodeCompletedEvent`. */
export const EVENT_OBJECT_NAMES = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, `${type.toLowerCase().replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase())}Event`]),
) as Record<RunEventTypeName, string>;

/** Which object type a resolved event is (its `type`), for both interfaces. */
export function eventObjectName(event: { type: string }): string | undefined {
  return EVENT_OBJECT_NAMES[event.type as RunEventTypeName];
}

const moved = (where: string) => `Select it on the event's own type: ${where}. Kept for a deprecation period.`;

@ObjectType("TokenUsage", { description: "Tokens a model call (or a whole run) used." })
export class TokenUsageObject {
  @Field(() => Int)
  promptTokens!: number;

  @Field(() => Int)
  completionTokens!: number;

  @Field(() => Int)
  totalTokens!: number;
}

@ObjectType("NodeEventDetails", {
  description: "What a node's execution did, as its NODE_COMPLETED or NODE_FAILED event records it (the node run has the rest: inputs, prompt, context, reply).",
})
export class NodeEventDetailsObject {
  @Field(() => String, { nullable: true })
  provider!: string | null;

  @Field(() => String, { nullable: true })
  model!: string | null;

  @Field(() => TokenUsageObject, { nullable: true, description: "Null when the node called no model." })
  usage!: TokenUsageObject | null;

  @Field(() => Int, { description: "Provider attempts beyond the first, plus a parse repair if one was made." })
  retries!: number;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;
}

@ObjectType("HumanAction", { description: "A decision a human node's task offers: its id is the node's output port." })
export class HumanActionObject {
  @Field(() => String)
  id!: string;

  @Field(() => String, { nullable: true, description: "The button's text; null: show the id." })
  label!: string | null;
}

@ObjectType("NodeOutput", { description: "One node's output, as a run's end reports it." })
export class NodeOutputObject {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String, { complexity: TEXT_COST })
  output!: string;
}

@InterfaceType("RunEvent", {
  description: "One step of a run, numbered by `seq` from 1. Each kind is its own type (`__typename`, e.g. NodeCompletedEvent) with exactly its fields.",
  resolveType: eventObjectName,
})
export abstract class RunEventInterface {
  @Field(() => ID)
  runId!: string;

  @Field(() => Int)
  seq!: number;

  @Field(() => RunEventTypeEnum)
  type!: string;

  @Field(() => Date)
  at!: Date;

  @Field(() => String, { nullable: true, description: "The node the event is about, if it is about one." })
  nodeId!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("NodeDescriptionEvent.description, NodeCompletedEvent.description") })
  description!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("NodeCompletedEvent.output; a run's result is RunCompletedEvent.result") })
  output!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("NodeTokenEvent.text; a warning's message is WarningEvent.message") })
  text!: string | null;

  @Field(() => RunErrorObject, { nullable: true, deprecationReason: moved("NodeFailedEvent.error, RunFailedEvent.error") })
  error!: RunErrorObject | null;

  // One event per run carries it: costed as one long text rather than as a list on every event.
  @Field(() => [String], { nullable: true, complexity: TEXT_COST, deprecationReason: moved("RunStartedEvent.nodeIds") })
  nodeIds!: string[] | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("WarningEvent.code") })
  code!: string | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("NodeSkippedEvent.reason, RunCancelledEvent.reason") })
  reason!: string | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("NodeEvent.invocation (every event about one execution of a node), LoopIterationEvent.invocation, WarningEvent.invocation") })
  invocation!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("NodeCompletedEvent.value") })
  value!: unknown;

  @Field(() => [String], { nullable: true, deprecationReason: moved("BranchTakenEvent.ports, NodeCompletedEvent.ports") })
  ports!: string[] | null;

  @Field(() => [String], { nullable: true, deprecationReason: moved("BranchTakenEvent.skipped") })
  skipped!: string[] | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("LoopIterationEvent.loopId, LoopExhaustedEvent.loopId") })
  loopId!: string | null;

  @Field(() => Int, { nullable: true, deprecationReason: moved("LoopIterationEvent.iteration") })
  iteration!: number | null;

  @Field(() => Int, { nullable: true, deprecationReason: moved("LoopIterationEvent.max, LoopExhaustedEvent.max") })
  max!: number | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("LoopIterationEvent.feedback, NodeCompletedEvent.feedback") })
  feedback!: string | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("LoopExhaustedEvent.exit") })
  exit!: string | null;

  @Field(() => Int, { nullable: true, deprecationReason: moved("MapStartedEvent.items") })
  items!: number | null;

  @Field(() => Int, { nullable: true, deprecationReason: moved("MapItemCompletedEvent.index") })
  index!: number | null;

  @Field(() => Int, { nullable: true, deprecationReason: moved("RunResumedEvent.attempt") })
  attempt!: number | null;

  @Field(() => String, { nullable: true, deprecationReason: moved("StateUpdatedEvent.channel") })
  channel!: string | null;

  @Field(() => Float, { nullable: true, deprecationReason: moved("CacheHitEvent.similarity") })
  similarity!: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, complexity: TEXT_COST, deprecationReason: moved("RunCompletedEvent.state, RunFailedEvent.state, RunCancelledEvent.state") })
  state!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, {
    complexity: TEXT_COST,
    deprecationReason: moved("every field of every kind is typed there (`... on NodeCompletedEvent { details { usage { totalTokens } } }`)"),
  })
  payload!: Record<string, unknown>;
}

@InterfaceType("NodeEvent", {
  implements: RunEventInterface,
  description: "An event about one execution of a node: NODE_STARTED … NODE_SKIPPED and the weft.workflow/v2 node events.",
  resolveType: eventObjectName,
})
export abstract class NodeEventInterface {
  @Field(() => String, {
    nullable: true,
    description: 'Which execution of the node: "" at top level and in a loop\'s first iteration, "regen#2", "perQuestion[1]", nested with "/" (see NodeRun.invocation).',
  })
  invocation!: string | null;
}
