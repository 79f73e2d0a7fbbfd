import { Arg, Args, Authorized, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { DOCUMENT_COST, EXPENSIVE, TEXT_COST, unboundedListCost } from "../common/field-cost.js";
import type { SearchIntensity } from "@weft/engine";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { valueOrThrow } from "../../errors/outcome.js";
import { SearchIntensityEnum } from "../common/search-intensity.type.js";
import {
  graphEdgeObjects,
  graphNodeObjects,
  LoopDeclarationObject,
  PromptSetObject,
  StateChannelObject,
  toSettingsObjects,
  WorkflowEdgeObject,
  WorkflowLimitsObject,
  WorkflowNodeObject,
} from "../workflow/index.js";
import type { WorkflowVersionService } from "./workflow-version.service.js";
import { versionPromptSet } from "./workflow-version.mapper.js";
import {
  PublishWorkflowPayload,
  WorkflowComparisonObject,
  WorkflowVersionConnection,
  WorkflowVersionObject,
} from "./workflow-version.type.js";

/** The services these resolvers reach. */
type VersionContext = GraphQLContext<{ versions: WorkflowVersionService }>;

/** Publishing, listing and comparing versions; a version's content is read from its stored document. */
@Resolver(() => WorkflowVersionObject)
export class WorkflowVersionResolver {
  @Authorized("write")
  @Mutation(() => PublishWorkflowPayload, {
    description: "Freezes the workflow as it is now as its next numbered version; refused with every rule violation.",
  })
  async publishWorkflow(
    @Arg("id", () => ID) id: string,
    @Arg("note", () => String, { nullable: true }) note: string | null,
    @Ctx() context: VersionContext,
  ): Promise<PublishWorkflowPayload> {
    const outcome = await context.services.versions.publish(id, note, context.auth);
    return outcome.ok ? { version: outcome.value, errors: [] } : { version: null, errors: outcome.errors };
  }

  @Authorized("read")
  @Query(() => WorkflowVersionConnection, { description: "A workflow's published versions, newest first." })
  async workflowVersions(
    @Arg("workflowId", () => ID) workflowId: string,
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Ctx() context: VersionContext,
  ): Promise<Page<WorkflowVersionObject>> {
    return valueOrThrow(await context.services.versions.list(workflowId, page));
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => WorkflowVersionObject, { nullable: true, description: "One published version by its number." })
  workflowVersion(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("number", () => Int) number: number,
    @Ctx() context: VersionContext,
  ): Promise<WorkflowVersionObject | null> {
    return context.services.versions.get(workflowId, number);
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => WorkflowComparisonObject, {
    description: "Nodes, edges and settings added, removed and changed from version `from` to version `to` (omitted: the draft).",
    complexity: ({ childComplexity }) => 2 * DOCUMENT_COST + childComplexity,
  })
  async compareWorkflowVersions(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("from", () => Int) from: number,
    @Arg("to", () => Int, { nullable: true, description: "A version number; omitted or null: the draft." }) to: number | null,
    @Ctx() context: VersionContext,
  ): Promise<WorkflowComparisonObject> {
    return valueOrThrow(await context.services.versions.compare(workflowId, from, to ?? null));
  }

  @FieldResolver(() => String, { description: "The workflow's name when it was published." })
  async name(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<string> {
    return (await context.services.versions.content(version.id)).workflow.name;
  }

  @FieldResolver(() => PromptSetObject)
  async prompts(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<PromptSetObject> {
    return versionPromptSet((await context.services.versions.content(version.id)).workflow);
  }

  @FieldResolver(() => String, { complexity: TEXT_COST })
  async outputFormat(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<string> {
    return (await context.services.versions.content(version.id)).workflow.outputFormat;
  }

  @FieldResolver(() => String, { nullable: true })
  async knowledgeBase(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<string | null> {
    return (await context.services.versions.content(version.id)).workflow.knowledgeBase ?? null;
  }

  @FieldResolver(() => SearchIntensityEnum)
  async intensity(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<SearchIntensity> {
    return (await context.services.versions.content(version.id)).workflow.intensity ?? "LOW";
  }

  @FieldResolver(() => [LoopDeclarationObject], { description: "Its declared loops (weft.workflow/v2)." })
  async loops(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<LoopDeclarationObject[]> {
    return toSettingsObjects((await context.services.versions.content(version.id)).workflow).loops;
  }

  @FieldResolver(() => [StateChannelObject], { description: "Its state channels (weft.workflow/v2), in declaration order." })
  async state(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<StateChannelObject[]> {
    return toSettingsObjects((await context.services.versions.content(version.id)).workflow).state;
  }

  @FieldResolver(() => WorkflowLimitsObject)
  async limits(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<WorkflowLimitsObject> {
    return toSettingsObjects((await context.services.versions.content(version.id)).workflow).limits;
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowNodeObject], { description: "Nodes in the version's order.", complexity: unboundedListCost })
  async nodes(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<WorkflowNodeObject[]> {
    return graphNodeObjects((await context.services.versions.content(version.id)).workflow);
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowEdgeObject], { description: "Edges in the version's order (their `order`).", complexity: unboundedListCost })
  async edges(@Root() version: WorkflowVersionObject, @Ctx() context: VersionContext): Promise<WorkflowEdgeObject[]> {
    return graphEdgeObjects((await context.services.versions.content(version.id)).workflow);
  }
}

