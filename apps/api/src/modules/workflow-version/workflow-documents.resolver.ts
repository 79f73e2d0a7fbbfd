import { GraphQLJSON } from "graphql-scalars";
import { Arg, Authorized, Ctx, Extensions, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { DOCUMENT_COST, EXPENSIVE } from "../common/field-cost.js";
import { WorkflowPayload, type AfterImport, type WorkflowService } from "../workflow/index.js";
import type { WorkflowVersionService } from "./workflow-version.service.js";

type DocumentContext = GraphQLContext<{ workflows: WorkflowService; versions: WorkflowVersionService }>;

/**
 * Export and import of workflow documents. They live here, beside versions, because either may name
 * one: export writes the draft or a published version, import may publish what it stores as version 1.
 */
@Resolver()
export class WorkflowDocumentsResolver {
  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => String, {
    nullable: true,
    description: "The workflow, or one of its published versions, as a weft.workflow document (pretty JSON): weft.workflow/v1 when it uses only v1 features, else weft.workflow/v2; importWorkflow reads it back.",
    complexity: DOCUMENT_COST,
  })
  exportWorkflow(
    @Arg("id", () => ID) id: string,
    @Arg("version", () => Int, { nullable: true, description: "A published version's number; omitted: the draft." }) version: number | null,
    @Ctx() context: DocumentContext,
  ): Promise<string | null> {
    if (version !== null && version !== undefined) return context.services.versions.export(id, version);
    return context.services.workflows.documents.export(id);
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, {
    description: "Creates a workflow from a weft.workflow/v1 or weft.workflow/v2 document (JSON text or a JSON object). Refused with every problem listed.",
  })
  async importWorkflow(
    @Arg("document", () => GraphQLJSON) document: unknown,
    @Arg("publish", () => Boolean, { nullable: true, description: "Also publish it as version 1, in the same transaction." }) publish: boolean | null,
    @Arg("note", () => String, { nullable: true, description: "The note of that version." }) note: string | null,
    @Ctx() context: DocumentContext,
  ): Promise<WorkflowPayload> {
    let afterInsert: AfterImport | undefined;
    if (publish) {
      const publishing = context.services.versions.publishOnImport(note ?? "", context.auth);
      if (!publishing.ok) return { workflow: null, errors: publishing.errors };
      afterInsert = publishing.value;
    }
    const outcome = await context.services.workflows.documents.import(document, afterInsert);
    if (!outcome.ok) return { workflow: null, errors: outcome.errors };
    return { workflow: await context.services.workflows.get(outcome.value), errors: [] };
  }
}
