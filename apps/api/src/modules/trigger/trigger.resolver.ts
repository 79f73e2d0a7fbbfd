import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { CreateScheduleTriggerInput, CreateWebhookTriggerInput, UpdateTriggerInput } from "./trigger.input.js";
import type { TriggerService } from "./trigger.service.js";
import { MAX_FIRINGS_PER_READ } from "./trigger.service.js";
import { CreateWebhookTriggerPayload, DeleteTriggerPayload, TriggerFiringObject, TriggerObject, TriggerPayload } from "./trigger.type.js";

type TriggerContext = GraphQLContext<{ triggers: TriggerService }>;

/** Where a webhook is called: WEFT_PUBLIC_URL when set, else the origin the client reached this server at. */
function hookUrl(context: TriggerContext, triggerId: string): string {
  return `${context.services.triggers.publicUrl ?? context.origin ?? ""}/hooks/${triggerId}`;
}

@Resolver(() => TriggerObject)
export class TriggerResolver {
  @Authorized("read")
  @Query(() => [TriggerObject], { description: "A workflow's webhooks and schedules, oldest first." })
  triggers(@Arg("workflowId", () => ID) workflowId: string, @Ctx() context: TriggerContext): Promise<TriggerObject[]> {
    return context.services.triggers.list(workflowId);
  }

  @Authorized("read")
  @Query(() => TriggerObject, { nullable: true })
  trigger(@Arg("id", () => ID) id: string, @Ctx() context: TriggerContext): Promise<TriggerObject | null> {
    return context.services.triggers.get(id);
  }

  @Authorized("write", "run")
  @Mutation(() => CreateWebhookTriggerPayload, { description: "A webhook: POST /hooks/<id> signed with the secret returned here, once." })
  async createWebhookTrigger(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("input", () => CreateWebhookTriggerInput) input: CreateWebhookTriggerInput,
    @Ctx() context: TriggerContext,
  ): Promise<CreateWebhookTriggerPayload> {
    const outcome = await context.services.triggers.createWebhook(workflowId, input);
    if (!outcome.ok) return { trigger: null, url: null, secret: null, errors: outcome.errors };
    const { trigger, secret } = outcome.value;
    return { trigger, url: hookUrl(context, trigger.id), secret, errors: [] };
  }

  @Authorized("write", "run")
  @Mutation(() => TriggerPayload, { description: "A cron schedule (5 fields, or 6 with seconds) in a time zone." })
  async createScheduleTrigger(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("input", () => CreateScheduleTriggerInput) input: CreateScheduleTriggerInput,
    @Ctx() context: TriggerContext,
  ): Promise<TriggerPayload> {
    const outcome = await context.services.triggers.createSchedule(workflowId, input);
    return outcome.ok ? { trigger: outcome.value, errors: [] } : { trigger: null, errors: outcome.errors };
  }

  @Authorized("write", "run")
  @Mutation(() => TriggerPayload, { description: "Enables, disables or changes a trigger (its kind and secret stay)." })
  async updateTrigger(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateTriggerInput) input: UpdateTriggerInput,
    @Ctx() context: TriggerContext,
  ): Promise<TriggerPayload> {
    const outcome = await context.services.triggers.update(id, input);
    return outcome.ok ? { trigger: outcome.value, errors: [] } : { trigger: null, errors: outcome.errors };
  }

  @Authorized("write", "run")
  @Mutation(() => DeleteTriggerPayload, { description: "Deletes a trigger and its firings; its runs stay (Run.trigger keeps naming it)." })
  async deleteTrigger(@Arg("id", () => ID) id: string, @Ctx() context: TriggerContext): Promise<DeleteTriggerPayload> {
    const outcome = await context.services.triggers.delete(id);
    return outcome.ok ? { id: outcome.value, errors: [] } : { id: null, errors: outcome.errors };
  }

  @FieldResolver(() => String, { nullable: true, description: "Webhooks: where to POST (<origin>/hooks/<id>)." })
  url(@Root() trigger: TriggerObject, @Ctx() context: TriggerContext): string | null {
    return trigger.kind === "WEBHOOK" ? hookUrl(context, trigger.id) : null;
  }

  @FieldResolver(() => [TriggerFiringObject], { description: `The latest firings, newest first (at most ${MAX_FIRINGS_PER_READ}).` })
  firings(@Root() trigger: TriggerObject, @Arg("first", () => Int, { defaultValue: 20 }) first: number, @Ctx() context: TriggerContext): Promise<TriggerFiringObject[]> {
    return context.services.triggers.firings(trigger.id, first);
  }
}
