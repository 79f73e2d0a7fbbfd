import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { WorkflowObject } from "../workflow/index.js";
import type { WorkflowVersionService } from "./workflow-version.service.js";
import { valueOrThrow } from "../../errors/outcome.js";
import { WorkflowVersionConnection, WorkflowVersionObject } from "./workflow-version.type.js";

type VersionContext = GraphQLContext<{ versions: WorkflowVersionService }>;

/** A workflow's published versions, as fields of Workflow. */
@Resolver(() => WorkflowObject)
export class WorkflowVersionsFieldResolver {
  @FieldResolver(() => WorkflowVersionConnection, { description: "Published versions, newest first." })
  async versions(
    @Root() workflow: WorkflowObject,
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Ctx() context: VersionContext,
  ): Promise<Page<WorkflowVersionObject>> {
    return valueOrThrow(await context.services.versions.list(workflow.id, page));
  }

  @FieldResolver(() => WorkflowVersionObject, {
    nullable: true,
    description: "The latest published version: what runs execute when they name no version. null while none is published.",
  })
  publishedVersion(@Root() workflow: WorkflowObject, @Ctx() context: VersionContext): Promise<WorkflowVersionObject | null> {
    return context.services.versions.latest(workflow.id);
  }
}
