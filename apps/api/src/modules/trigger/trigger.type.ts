import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";
import { TriggerKindEnum, type TriggerKind } from "../common/trigger-kind.type.js";

export const WebhookModeEnum = { ASYNC: "ASYNC", SYNC: "SYNC" } as const;
export type WebhookMode = keyof typeof WebhookModeEnum;
registerEnumType(WebhookModeEnum, { name: "WebhookMode", description: "ASYNC: 202 {runId} at once; SYNC: 200 {runId, status, output} once the run ends (202 when timeoutMs passes first)." });

export const ScheduleOverlapEnum = { SKIP: "SKIP", ALLOW: "ALLOW" } as const;
export type ScheduleOverlap = keyof typeof ScheduleOverlapEnum;
registerEnumType(ScheduleOverlapEnum, { name: "ScheduleOverlap", description: "SKIP: a tick while a run of the trigger is queued or running starts none; ALLOW: it starts one anyway." });

export const ScheduleCatchUpEnum = { NONE: "NONE", LAST: "LAST" } as const;
export type ScheduleCatchUp = keyof typeof ScheduleCatchUpEnum;
registerEnumType(ScheduleCatchUpEnum, { name: "ScheduleCatchUp", description: "Ticks missed while no process ran: NONE fires none of them; LAST fires the latest once." });

export const TriggerFiringStatusEnum = { STARTED: "STARTED", SKIPPED: "SKIPPED", FAILED: "FAILED" } as const;
export type TriggerFiringStatus = keyof typeof TriggerFiringStatusEnum;
registerEnumType(TriggerFiringStatusEnum, { name: "TriggerFiringStatus" });

@ObjectType("TriggerInput", { description: "One input node's content, computed by a CEL expression over the request (webhooks: body, headers, query)." })
export class TriggerInputObject {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String, { description: "CEL; a string result is the content as is, anything else its JSON." })
  from!: string;
}

@ObjectType("Trigger", { description: "Starts runs of a workflow from outside: a signed webhook or a cron schedule (SPEC-V3 §5)." })
export class TriggerObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  workflowId!: string;

  @Field(() => TriggerKindEnum)
  kind!: TriggerKind;

  @Field(() => Boolean, { description: "A disabled webhook answers 404; a disabled schedule does not tick." })
  enabled!: boolean;

  @Field(() => Int, { nullable: true, description: "The published version its runs execute; null: the latest published one (the draft while none is)." })
  version!: number | null;

  @Field(() => [TriggerInputObject])
  inputs!: TriggerInputObject[];

  @Field(() => WebhookModeEnum, { nullable: true, description: "Webhooks only." })
  mode!: WebhookMode | null;

  @Field(() => Int, { nullable: true, description: "Webhooks in SYNC mode: how long the call waits for the run." })
  timeoutMs!: number | null;

  @Field(() => String, { nullable: true, description: "Schedules: the cron expression (5 fields, or 6 with seconds first)." })
  cron!: string | null;

  @Field(() => String, { nullable: true, description: "Schedules: the IANA time zone the cron expression is read in." })
  timezone!: string | null;

  @Field(() => ScheduleOverlapEnum, { nullable: true })
  overlap!: ScheduleOverlap | null;

  @Field(() => ScheduleCatchUpEnum, { nullable: true })
  catchUp!: ScheduleCatchUp | null;

  @Field(() => Date, { nullable: true, description: "When it last started a run, or tried to." })
  lastFiredAt!: Date | null;

  @Field(() => Date, { nullable: true, description: "Schedules: the next tick (null when disabled)." })
  nextTickAt!: Date | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

@ObjectType("TriggerFiring", { description: "One firing: an accepted webhook call or a schedule tick, and what came of it." })
export class TriggerFiringObject {
  @Field(() => ID)
  id!: string;

  @Field(() => TriggerFiringStatusEnum)
  status!: TriggerFiringStatus;

  @Field(() => ID, { nullable: true, description: "The run it started (null when none was, or the run was deleted)." })
  runId!: string | null;

  @Field(() => String, { nullable: true, description: "Webhooks: the Idempotency-Key; schedules: tick:<ISO time of the tick>." })
  key!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "FAILED and SKIPPED: `{code, message}`." })
  error!: Record<string, unknown> | null;

  @Field(() => Date)
  firedAt!: Date;
}

@ObjectType("TriggerPayload", { implements: MutationPayload })
export class TriggerPayload extends MutationPayload {
  @Field(() => TriggerObject, { nullable: true })
  trigger!: TriggerObject | null;
}

@ObjectType("CreateWebhookTriggerPayload", { implements: MutationPayload })
export class CreateWebhookTriggerPayload extends MutationPayload {
  @Field(() => TriggerObject, { nullable: true })
  trigger!: TriggerObject | null;

  @Field(() => String, { nullable: true, description: "Where to POST: <origin>/hooks/<triggerId>." })
  url!: string | null;

  @Field(() => String, { nullable: true, description: "The signing secret, shown this once: sign each body with HMAC-SHA256 under it (X-Weft-Signature: sha256=<hex>)." })
  secret!: string | null;
}

@ObjectType("DeleteTriggerPayload", { implements: MutationPayload })
export class DeleteTriggerPayload extends MutationPayload {
  @Field(() => ID, { nullable: true })
  id!: string | null;
}
