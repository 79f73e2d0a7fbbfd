import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { TEXT_COST } from "../common/field-cost.js";
import { RunErrorObject } from "./run.type.js";
import { HumanActionObject, NodeEventDetailsObject, NodeEventInterface, NodeOutputObject, RunEventInterface, TokenUsageObject } from "./run-event.type.js";

/**
 * One object type per event kind (SPEC §events, SPEC-V2 §8), each with exactly its kind's fields (see
 * run-event.type.ts). The interfaces' fields are added to each type by type-graphql (`implements`); a
 * field a kind shares with the deprecated fields of RunEvent is declared here again with the same type,
 * not deprecated; the others are the kind's own. The classes only describe the schema: every kind
 * resolves from a RunEventView (run-event.mapper.ts). An event type added to the RunEventType enum needs
 * its kind here (run-event.type.test.ts fails until it has one).
 */

const RUN_END = "The final state channels, when the workflow declares any.";
const OUTPUTS = "The output (as text) of every top-level node that completed (a loop's nodes: their last iteration's), in node-id order.";

@ObjectType("RunStartedEvent", { implements: RunEventInterface, description: "RUN_STARTED: the run began executing." })
export class RunStartedEventObject {
  @Field(() => [String], { nullable: true, complexity: TEXT_COST, description: "Every node of the run, in node order." })
  nodeIds!: string[] | null;
}

@ObjectType("RunResumedEvent", { implements: RunEventInterface, description: "RUN_RESUMED: a worker took over a run whose worker stopped; finished nodes are not executed again." })
export class RunResumedEventObject {
  @Field(() => Int, { nullable: true, description: "The attempt that took the run over (2 for the first resumption)." })
  attempt!: number | null;
}

@ObjectType("NodeStartedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_STARTED." })
export class NodeStartedEventObject {
  @Field(() => String)
  nodeType!: string;
}

@ObjectType("NodeTokenEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_TOKEN: streamed model text (run option streamTokens)." })
export class NodeTokenEventObject {
  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  text!: string | null;
}

@ObjectType("NodeDescriptionEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_DESCRIPTION: the node's description for people, before its output." })
export class NodeDescriptionEventObject {
  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  description!: string | null;
}

@ObjectType("NodeCompletedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_COMPLETED." })
export class NodeCompletedEventObject {
  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  description!: string | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, description: "The node's output as text." })
  output!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, description: "The output as JSON when it is not a string (a grade's verdict, a map's list)." })
  value!: unknown;

  @Field(() => [String], { nullable: true, description: "A router: the ports it took." })
  ports!: string[] | null;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, description: "A router: what flows on its out-edges (its input)." })
  passed!: unknown;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, description: "A router that took a loop edge with a reason: that reason ({feedback})." })
  feedback!: string | null;

  @Field(() => NodeEventDetailsObject)
  details!: NodeEventDetailsObject;
}

@ObjectType("NodeFailedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_FAILED: its downstream nodes are skipped." })
export class NodeFailedEventObject {
  @Field(() => RunErrorObject, { nullable: true })
  error!: RunErrorObject | null;

  @Field(() => NodeEventDetailsObject)
  details!: NodeEventDetailsObject;
}

@ObjectType("NodeSkippedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_SKIPPED: the node will not run in this invocation." })
export class NodeSkippedEventObject {
  @Field(() => String, { nullable: true, description: "BRANCH_NOT_TAKEN, UPSTREAM_FAILED, RUN_CANCELLED, or the code that ended the run (RUN_INTERRUPTED, …)." })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: "UPSTREAM_FAILED: the node whose failure blocked this one." })
  blockedBy!: string | null;
}

@ObjectType("WarningEvent", { implements: RunEventInterface, description: "WARNING: something the run survived (a retried call, an empty placeholder, …)." })
export class WarningEventObject {
  @Field(() => String, { nullable: true, description: "Its stable code (EMPTY_PLACEHOLDER, PROVIDER_RETRY, PARSE_REPAIR, …)." })
  code!: string | null;

  @Field(() => String, { complexity: TEXT_COST })
  message!: string;

  @Field(() => String, { nullable: true, description: "The execution that warned, when a node did." })
  invocation!: string | null;
}

@ObjectType("BranchTakenEvent", { implements: [RunEventInterface, NodeEventInterface], description: "BRANCH_TAKEN: a router chose its ports." })
export class BranchTakenEventObject {
  @Field(() => [String], { nullable: true, description: "The ports taken." })
  ports!: string[] | null;

  @Field(() => [String], { nullable: true, description: "Its other ports, whose edges are dead." })
  skipped!: string[] | null;
}

@ObjectType("LoopIterationEvent", { implements: RunEventInterface, description: "LOOP_ITERATION: an iteration of a loop (from 2) starts." })
export class LoopIterationEventObject {
  @Field(() => String, { nullable: true, description: 'The iteration\'s path prefix ("regen#2").' })
  invocation!: string | null;

  @Field(() => String, { nullable: true })
  loopId!: string | null;

  @Field(() => Int, { nullable: true })
  iteration!: number | null;

  @Field(() => Int, { nullable: true, description: "The loop's bound." })
  max!: number | null;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, description: "The grader's reason that sent the loop back ({feedback})." })
  feedback!: string | null;
}

@ObjectType("LoopExhaustedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "LOOP_EXHAUSTED: a router would have started iteration max + 1." })
export class LoopExhaustedEventObject {
  @Field(() => String, { nullable: true })
  loopId!: string | null;

  @Field(() => Int, { nullable: true, description: "The loop's bound." })
  max!: number | null;

  @Field(() => String, { nullable: true, description: "The port taken instead of the loop edge; null when the router failed." })
  exit!: string | null;
}

@ObjectType("MapStartedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "MAP_STARTED." })
export class MapStartedEventObject {
  @Field(() => Int, { nullable: true, description: "How many items." })
  items!: number | null;
}

@ObjectType("MapItemCompletedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "MAP_ITEM_COMPLETED." })
export class MapItemCompletedEventObject {
  @Field(() => Int, { nullable: true, description: "The item's index (from 0)." })
  index!: number | null;
}

@ObjectType("StateUpdatedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "STATE_UPDATED (run option stateEvents): a node's write changed a state channel." })
export class StateUpdatedEventObject {
  @Field(() => String, { nullable: true })
  channel!: string | null;
}

@ObjectType("CacheHitEvent", { implements: [RunEventInterface, NodeEventInterface], description: "CACHE_HIT: a semantic cache answered." })
export class CacheHitEventObject {
  @Field(() => Float, { nullable: true, description: "The cached question's similarity to this one (0..1)." })
  similarity!: number | null;
}

@ObjectType("CacheMissEvent", { implements: [RunEventInterface, NodeEventInterface], description: "CACHE_MISS." })
export class CacheMissEventObject {}

@ObjectType("NodeWaitingEvent", { implements: [RunEventInterface, NodeEventInterface], description: "NODE_WAITING: a human node opened a task and waits for a person (SPEC-V3 §2)." })
export class NodeWaitingEventObject {
  @Field(() => ID, { description: "The task (HumanTask.id)." })
  taskId!: string;

  @Field(() => [HumanActionObject])
  actions!: HumanActionObject[];

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, description: "JSON Schema (an object) of the data to submit; null: no form." })
  form!: unknown;

  @Field(() => Date, { nullable: true, description: "When the task expires; null: no timeout." })
  expiresAt!: Date | null;

  @Field(() => String, { complexity: TEXT_COST })
  title!: string;

  @Field(() => String, { complexity: TEXT_COST, description: "Markdown." })
  instructions!: string;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, description: "The node's input, as the task shows it." })
  input!: unknown;

  @Field(() => Boolean)
  editable!: boolean;

  @Field(() => String, { nullable: true })
  assignee!: string | null;

  @Field(() => String, { nullable: true, description: "The action an expiry takes; null: the node fails with HUMAN_TIMEOUT." })
  onTimeout!: string | null;
}

@ObjectType("HumanTaskCompletedEvent", { implements: [RunEventInterface, NodeEventInterface], description: "HUMAN_TASK_COMPLETED: a task was closed and its node goes on." })
export class HumanTaskCompletedEventObject {
  @Field(() => ID)
  taskId!: string;

  @Field(() => String, { nullable: true, description: "The action taken (an expiry: the node's onTimeout; null: the node fails with HUMAN_TIMEOUT)." })
  action!: string | null;

  @Field(() => String, { nullable: true, description: "The API key's name; null for an expiry." })
  by!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST })
  data!: unknown;

  @Field(() => String, { nullable: true, complexity: TEXT_COST })
  comment!: string | null;

  @Field(() => Date, { nullable: true })
  completedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: "When the task was opened." })
  openedAt!: Date | null;

  @Field(() => Boolean, { description: "The task expired (its timeout), nobody completed it." })
  expired!: boolean;
}

@ObjectType("RunWaitingEvent", {
  implements: RunEventInterface,
  description: "RUN_WAITING: only tasks for people are left; no process holds the run (status WAITING) until one is closed (then RUN_RESUMED).",
})
export class RunWaitingEventObject {
  @Field(() => [ID], { description: "The open tasks." })
  taskIds!: string[];

  @Field(() => [NodeOutputObject], { complexity: TEXT_COST, description: OUTPUTS })
  outputs!: NodeOutputObject[];

  @Field(() => TokenUsageObject)
  usage!: TokenUsageObject;
}

@ObjectType("AgentToolCall", { description: "A tool call an agent's step asked for." })
export class AgentToolCallObject {
  @Field(() => ID, { description: "The model's id of the call (TOOL_CALLED and TOOL_RESULT carry it too)." })
  callId!: string;

  @Field(() => String, { description: "The tool's name, as the model saw it." })
  tool!: string;

  @Field(() => String, { complexity: TEXT_COST, description: "The arguments' JSON text, as the model wrote it." })
  arguments!: string;
}

@ObjectType("AgentStepEvent", { implements: [RunEventInterface, NodeEventInterface], description: "AGENT_STEP: an agent's model answered its step; no calls means its final answer." })
export class AgentStepEventObject {
  @Field(() => Int, { description: "The step, from 1." })
  step!: number;

  @Field(() => String, { nullable: true, complexity: TEXT_COST, description: "What the model wrote." })
  text!: string | null;

  @Field(() => [AgentToolCallObject], { complexity: TEXT_COST, description: "The tool calls the model asked for, in its order." })
  calls!: AgentToolCallObject[];

  @Field(() => String, { nullable: true, description: "Why the model stopped (stop, tool_calls, length, …), when the provider said." })
  finishReason!: string | null;

  @Field(() => TokenUsageObject, { description: "The step's tokens." })
  usage!: TokenUsageObject;
}

@ObjectType("ToolCalledEvent", { implements: [RunEventInterface, NodeEventInterface], description: 'TOOL_CALLED: a tool call starts; its invocation is the call\'s own ("<agentId>@<step>.<n>").' })
export class ToolCalledEventObject {
  @Field(() => ID)
  callId!: string;

  @Field(() => String)
  tool!: string;

  @Field(() => GraphQLJSON, { nullable: true, complexity: TEXT_COST, description: "The call's arguments: an object, or the model's text when it was not one." })
  arguments!: unknown;
}

@ObjectType("ToolResultEvent", { implements: [RunEventInterface, NodeEventInterface], description: "TOOL_RESULT: a tool call ended; the call's node run has its whole result." })
export class ToolResultEventObject {
  @Field(() => ID)
  callId!: string;

  @Field(() => String)
  tool!: string;

  @Field(() => Boolean, { description: "False when the call failed (the model was told why)." })
  ok!: boolean;

  @Field(() => String, { complexity: TEXT_COST, description: "A short text of the result or the error." })
  summary!: string;
}

@ObjectType("RunCompletedEvent", { implements: RunEventInterface, description: "RUN_COMPLETED." })
export class RunCompletedEventObject {
  @Field(() => String, { nullable: true, complexity: TEXT_COST, description: "The result node's output (the output node), as Run.result; null when it did not complete." })
  result!: string | null;

  @Field(() => [NodeOutputObject], { complexity: TEXT_COST, description: OUTPUTS })
  outputs!: NodeOutputObject[];

  @Field(() => TokenUsageObject)
  usage!: TokenUsageObject;

  @Field(() => GraphQLJSONObject, { nullable: true, complexity: TEXT_COST, description: RUN_END })
  state!: Record<string, unknown> | null;
}

@ObjectType("RunFailedEvent", { implements: RunEventInterface, description: "RUN_FAILED: completed outputs are kept." })
export class RunFailedEventObject {
  @Field(() => RunErrorObject, { nullable: true })
  error!: RunErrorObject | null;

  @Field(() => [String], { description: "The nodes that failed." })
  failedNodeIds!: string[];

  @Field(() => [NodeOutputObject], { complexity: TEXT_COST, description: OUTPUTS })
  outputs!: NodeOutputObject[];

  @Field(() => TokenUsageObject)
  usage!: TokenUsageObject;

  @Field(() => GraphQLJSONObject, { nullable: true, complexity: TEXT_COST, description: RUN_END })
  state!: Record<string, unknown> | null;
}

@ObjectType("RunCancelledEvent", { implements: RunEventInterface, description: "RUN_CANCELLED." })
export class RunCancelledEventObject {
  @Field(() => String, { nullable: true, description: 'The reason given ("cancelled by a client", "the server is shutting down").' })
  reason!: string | null;

  @Field(() => [NodeOutputObject], { complexity: TEXT_COST, description: OUTPUTS })
  outputs!: NodeOutputObject[];

  @Field(() => TokenUsageObject)
  usage!: TokenUsageObject;

  @Field(() => GraphQLJSONObject, { nullable: true, complexity: TEXT_COST, description: RUN_END })
  state!: Record<string, unknown> | null;
}

/** Every kind's type, for the schema (they are reached only through the interfaces). */
export const RUN_EVENT_KINDS = [
  RunStartedEventObject,
  RunResumedEventObject,
  NodeStartedEventObject,
  NodeTokenEventObject,
  NodeDescriptionEventObject,
  NodeCompletedEventObject,
  NodeFailedEventObject,
  NodeSkippedEventObject,
  WarningEventObject,
  BranchTakenEventObject,
  LoopIterationEventObject,
  LoopExhaustedEventObject,
  MapStartedEventObject,
  MapItemCompletedEventObject,
  StateUpdatedEventObject,
  CacheHitEventObject,
  CacheMissEventObject,
  NodeWaitingEventObject,
  HumanTaskCompletedEventObject,
  RunWaitingEventObject,
  AgentStepEventObject,
  ToolCalledEventObject,
  ToolResultEventObject,
  RunCompletedEventObject,
  RunFailedEventObject,
  RunCancelledEventObject,
];
