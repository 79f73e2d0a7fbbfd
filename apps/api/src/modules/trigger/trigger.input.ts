import { Field, InputType, Int } from "type-graphql";
import { ScheduleCatchUpEnum, ScheduleOverlapEnum, WebhookModeEnum, type ScheduleCatchUp, type ScheduleOverlap, type WebhookMode } from "./trigger.type.js";

@InputType("TriggerInputMapping", { description: "An input node's content from a CEL expression over the request." })
export class TriggerInputMapping {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String, { description: "CEL over body, headers and query; a string is the content as is, anything else its JSON." })
  from!: string;
}

@InputType("CreateWebhookTriggerInput")
export class CreateWebhookTriggerInput {
  @Field(() => [TriggerInputMapping], { nullable: true })
  inputs?: TriggerInputMapping[] | null;

  @Field(() => WebhookModeEnum, { nullable: true, description: "Default ASYNC." })
  mode?: WebhookMode | null;

  @Field(() => Int, { nullable: true, description: "SYNC: how long a call waits for its run, 1..120000 ms (default 30000)." })
  timeoutMs?: number | null;

  @Field(() => Int, { nullable: true, description: "A published version; omitted: the latest published one (the draft while none is)." })
  version?: number | null;

  @Field(() => Boolean, { nullable: true, description: "Default true." })
  enabled?: boolean | null;
}

@InputType("CreateScheduleTriggerInput")
export class CreateScheduleTriggerInput {
  @Field(() => String, { description: "5 fields (minute hour day month weekday), or 6 with seconds first." })
  cron!: string;

  @Field(() => String, { nullable: true, description: "IANA time zone (default UTC)." })
  timezone?: string | null;

  @Field(() => [TriggerInputMapping], { nullable: true, description: "CEL without variables (constants): the same content every tick." })
  inputs?: TriggerInputMapping[] | null;

  @Field(() => ScheduleOverlapEnum, { nullable: true, description: "Default SKIP." })
  overlap?: ScheduleOverlap | null;

  @Field(() => ScheduleCatchUpEnum, { nullable: true, description: "Default NONE." })
  catchUp?: ScheduleCatchUp | null;

  @Field(() => Int, { nullable: true })
  version?: number | null;

  @Field(() => Boolean, { nullable: true, description: "Default true." })
  enabled?: boolean | null;
}

@InputType("UpdateTriggerInput", { description: "Fields left out keep their value; webhook fields on a schedule (and the reverse) are refused." })
export class UpdateTriggerInput {
  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;

  @Field(() => Int, { nullable: true, description: "A published version; 0 means the latest published one again." })
  version?: number | null;

  @Field(() => [TriggerInputMapping], { nullable: true })
  inputs?: TriggerInputMapping[] | null;

  @Field(() => WebhookModeEnum, { nullable: true })
  mode?: WebhookMode | null;

  @Field(() => Int, { nullable: true })
  timeoutMs?: number | null;

  @Field(() => String, { nullable: true })
  cron?: string | null;

  @Field(() => String, { nullable: true })
  timezone?: string | null;

  @Field(() => ScheduleOverlapEnum, { nullable: true })
  overlap?: ScheduleOverlap | null;

  @Field(() => ScheduleCatchUpEnum, { nullable: true })
  catchUp?: ScheduleCatchUp | null;
}
