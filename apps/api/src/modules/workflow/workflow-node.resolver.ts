import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { WorkflowNodeObject } from "./workflow.type.js";
import type { WorkflowService } from "./workflow.service.js";

/** The services these resolvers reach. */
type WorkflowContext = GraphQLContext<{ workflows: WorkflowService }>;

/** Fields of a node that the registry decides, whichever query or mutation returned the node. */
@Resolver(() => WorkflowNodeObject)
export class WorkflowNodeResolver {
  @FieldResolver(() => [String], {
    description: "Its output ports, for drawing handles: `out`, or a router's case, label or verdict ports plus `default`.",
  })
  ports(@Root() node: WorkflowNodeObject, @Ctx() context: WorkflowContext): readonly string[] {
    return context.services.workflows.portsOf(node);
  }
}
