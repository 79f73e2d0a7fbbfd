import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { WorkflowPayload, type WorkflowService } from "../workflow/index.js";
import type { TemplateService } from "./template.service.js";
import { WorkflowTemplateObject } from "./template.type.js";

type TemplateContext = GraphQLContext<{ templates: TemplateService; workflows: WorkflowService }>;

@Resolver()
export class TemplateResolver {
  @Authorized("read")
  @Query(() => [WorkflowTemplateObject], { description: "The templates a new workflow can start from: the demo and the seed pipelines." })
  workflowTemplates(@Ctx() context: TemplateContext): Promise<WorkflowTemplateObject[]> {
    return context.services.templates.list();
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, {
    description:
      "Creates a new workflow from a template, with the knowledge bases it searches (made and indexed from the template's files when none of that name exists). Unknown template: NOT_FOUND.",
  })
  async createWorkflowFromTemplate(@Arg("templateId", () => ID) templateId: string, @Ctx() context: TemplateContext): Promise<WorkflowPayload> {
    const outcome = await context.services.templates.create(templateId);
    if (!outcome.ok) return { workflow: null, errors: outcome.errors };
    return { workflow: await context.services.workflows.get(outcome.value), errors: [] };
  }
}
