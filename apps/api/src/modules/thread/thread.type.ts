import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";
import { connectionTypes } from "../common/pagination.js";

export enum ThreadRoleValue {
  USER = "USER",
  ASSISTANT = "ASSISTANT",
}
registerEnumType(ThreadRoleValue, { name: "ThreadRole", description: "USER: a run's question; ASSISTANT: its answer." });

@ObjectType("ThreadMessage", { description: "One message of a thread: a completed run's question or answer." })
export class ThreadMessageObject {
  @Field(() => Int, { description: "1, 2, … in thread order; kept when retention removes older messages." })
  seq!: number;

  @Field(() => ThreadRoleValue)
  role!: ThreadRoleValue;

  @Field(() => String)
  content!: string;

  @Field(() => ID, { nullable: true, description: "The run that added it." })
  runId!: string | null;

  @Field(() => Date)
  createdAt!: Date;
}

@ObjectType("Thread", {
  description:
    "A conversation: runs of one workflow that share messages (each completed run adds its question and answer) and the workflow's thread-scoped state channels.",
})
export class ThreadObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => GraphQLJSONObject, { description: "The workflow's `scope: \"thread\"` state channels after the last completed run." })
  state!: Record<string, unknown>;

  @Field(() => Int, { description: "Number of the last message (0: none yet)." })
  lastSeq!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { description: "When the last turn was added (or the thread created)." })
  updatedAt!: Date;
}

export const { Edge: ThreadEdge, Connection: ThreadConnection } = connectionTypes("Thread", () => ThreadObject);
export const { Edge: ThreadMessageEdge, Connection: ThreadMessageConnection } = connectionTypes("ThreadMessage", () => ThreadMessageObject);

@ObjectType({ implements: MutationPayload })
export class DeleteThreadPayload extends MutationPayload {
  @Field(() => ID, { nullable: true, description: "The deleted thread's id." })
  id!: string | null;
}
