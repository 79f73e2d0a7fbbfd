import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { WorkflowObject } from "../workflow/index.js";
import type { PublishGateService } from "./publish-gate.service.js";
import { PublishGateInput, PublishGateObject, PublishGatePayload } from "./publish-gate.type.js";

type GateContext = GraphQLContext<{ publishGates: PublishGateService }>;

@Resolver(() => WorkflowObject)
export class PublishGateResolver {
  @FieldResolver(() => PublishGateObject, { nullable: true, description: "What publishWorkflow requires of the draft first; null: nothing." })
  publishGate(@Root() workflow: WorkflowObject, @Ctx() context: GateContext): Promise<PublishGateObject | null> {
    return context.services.publishGates.get(workflow.id);
  }

  @Authorized("write")
  @Mutation(() => PublishGatePayload, { description: "Sets a workflow's publish gate; gate: null removes it." })
  async setPublishGate(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("gate", () => PublishGateInput, { nullable: true }) gate: PublishGateInput | null,
    @Ctx() context: GateContext,
  ): Promise<PublishGatePayload> {
    const outcome = await context.services.publishGates.set(workflowId, gate);
    return outcome.ok ? { publishGate: outcome.value, errors: [] } : { publishGate: null, errors: outcome.errors };
  }
}
