import { Field, Float, InputType, Int } from "type-graphql";
import type { StateReducer, StateScope } from "@weft/engine";
import { StateReducerEnum, StateScopeEnum, type LoopDeclarationObject, type StateChannelObject, type WorkflowLimitsObject } from "./workflow-settings.type.js";

@InputType("LoopInput")
export class LoopInput implements Partial<LoopDeclarationObject> {
  @Field(() => String)
  id!: string;

  @Field(() => Int, { nullable: true, description: "1..100." })
  max?: number | null;

  @Field(() => String, { nullable: true, description: "A port of the routers that take this loop's edges; null or absent: none." })
  exit?: string | null;
}

@InputType("StateChannelInput")
export class StateChannelInput implements Partial<Omit<StateChannelObject, "scope">> {
  @Field(() => String)
  name!: string;

  @Field(() => StateReducerEnum)
  reducer!: StateReducer;

  @Field(() => String, { nullable: true })
  key?: string | null;

  @Field(() => StateScopeEnum, { nullable: true, description: "Default run." })
  scope?: StateScope | null;
}

@InputType("WorkflowLimitsInput")
export class WorkflowLimitsInput implements Partial<WorkflowLimitsObject> {
  @Field(() => Int, { nullable: true, description: "1..100,000; null: the default." })
  maxInvocations?: number | null;

  @Field(() => Float, { nullable: true, description: "US dollars a run may spend on priced model calls (more than 0, at most 1,000,000); null: no limit. The limits are set together: one left out is cleared." })
  maxCostUsd?: number | null;
}
