import { STATE_REDUCERS, STATE_SCOPES, type StateReducer, type StateScope } from "@weft/engine";
import { Field, Float, Int, ObjectType, registerEnumType } from "type-graphql";

/** The reducers and scopes of SPEC-V2 §4, named as the document format names them. */
export const StateReducerEnum = Object.fromEntries(STATE_REDUCERS.map((name) => [name, name])) as { [K in StateReducer]: K };
registerEnumType(StateReducerEnum, {
  name: "StateReducer",
  description: "How a write merges into a state channel: replace, append (lists concatenate), appendUnique (by `key`, else by value), merge (shallow object merge).",
});

export const StateScopeEnum = Object.fromEntries(STATE_SCOPES.map((name) => [name, name])) as { [K in StateScope]: K };
registerEnumType(StateScopeEnum, { name: "StateScope", description: "run: one run; thread: kept across the runs of a thread." });

@ObjectType("LoopDeclaration", { description: "A bounded loop (SPEC-V2 §4): loop edges name it by `id`." })
export class LoopDeclarationObject {
  @Field(() => String)
  id!: string;

  @Field(() => Int, { nullable: true, description: "At most this many iterations (1..100); null while it is being built (LOOP_BOUND_INVALID)." })
  max!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "The router port taken instead of a loop edge that would exceed `max`; null: that router fails with LOOP_EXHAUSTED.",
  })
  exit!: string | null;
}

@ObjectType("StateChannel", { description: "A state channel nodes write to (`writes`) and read as {state.<name>}." })
export class StateChannelObject {
  @Field(() => String, { description: "The channel's name, an identifier." })
  name!: string;

  @Field(() => StateReducerEnum)
  reducer!: StateReducer;

  @Field(() => String, { nullable: true, description: "appendUnique: the field of an item that identifies it." })
  key!: string | null;

  @Field(() => StateScopeEnum)
  scope!: StateScope;
}

@ObjectType("WorkflowLimits")
export class WorkflowLimitsObject {
  @Field(() => Int, {
    nullable: true,
    description: "Worst-case node invocations a run may need (1..100,000); null: the default, 1,000 or the node count if larger.",
  })
  maxInvocations!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "US dollars a run may spend on priced model calls: the call that could pass it is not made and the run fails with RUN_COST_EXCEEDED; null: no limit.",
  })
  maxCostUsd!: number | null;
}
