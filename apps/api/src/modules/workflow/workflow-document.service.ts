import {
  parseWorkflowDocument,
  parseWorkflowValue,
  stringifyWorkflow,
  validateWorkflow,
  type DocumentIssue,
  type NodeTypeRegistry,
  type ParseWorkflowResult,
  type Workflow,
} from "@weft/engine";
import type { Prisma, PrismaClient, Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import type { ServiceDeps } from "../../service-deps.js";
import type { ModelCatalogService } from "../model/index.js";
import { findUnstorableText } from "../common/storable-text.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import { checkPosition } from "./workflow-input.validation.js";
import { LOCKED_TRANSACTION_OPTIONS } from "./workflow-lock.js";
import { insertWorkflow } from "./workflow-insert.js";
import { readWorkflowRows } from "./workflow-read.js";
import { workflowFromRows } from "./workflow.mapper.js";
import { userError, violationToUserError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";

/** More work in the import's transaction, on the stored workflow (publishing it as version 1). */
export type AfterImport = (tx: Prisma.TransactionClient, created: WorkflowRow, workflow: Workflow) => Promise<unknown>;

/**
 * Import and export of `weft.workflow/v1` and `weft.workflow/v2` documents, through the engine's parser
 * and serializer: export writes v1 whenever the workflow uses only v1 features, v2 otherwise.
 */
export class WorkflowDocumentService {
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;

  constructor(
    deps: Pick<ServiceDeps, "db" | "registry">,
    private readonly models: ModelCatalogService,
  ) {
    this.db = deps.db;
    this.registry = deps.registry;
  }

  /**
   * Creates a workflow from a document given as JSON text or as an already parsed JSON value. A
   * malformed document is refused with one DOCUMENT_INVALID error per issue (path = where); a
   * well-formed one is then checked against every rule, edit-time and run-time (SPEC §3: a whole graph
   * is checked at once), and refused with all violations. `afterInsert` runs in the same transaction
   * (the version module publishes the import as version 1 there). Returns the new workflow's id.
   */
  async import(document: unknown, afterInsert?: AfterImport): Promise<Outcome<string>> {
    const parsed = this.#parse(document);
    if (!parsed.ok) return failure(...parsed.issues.map(documentError));
    const workflow = parsed.workflow;
    // JSON text may spell a NUL or a lone surrogate as an escape (\u0000), which only parsing reveals.
    // The parser has bounded every depth already (params, bodies, schemas): no limit of its own here.
    const unstorable = findUnstorableText(workflow, ["document"], Infinity);
    if (unstorable) return failure(userError(unstorable.code, unstorable.message, { path: unstorable.path }));
    const tooBig = checkSize(workflow);
    if (tooBig.length > 0) return failure(...tooBig);
    const violations = validateWorkflow(workflow, { registry: this.registry, models: this.models.availableModels() });
    if (violations.length > 0) return failure(...violations.map(violationToUserError));
    const row = await this.db.$transaction(async (tx) => {
      const created = await insertWorkflow(tx, workflow, "");
      await afterInsert?.(tx, created, workflow);
      return created;
    }, LOCKED_TRANSACTION_OPTIONS);
    return success(row.id);
  }

  /** The stored workflow as a document (pretty JSON text); null when it does not exist. */
  async export(workflowId: string): Promise<string | null> {
    const rows = await readWorkflowRows(this.db, workflowId);
    return rows && stringifyWorkflow(workflowFromRows(rows.row, rows.nodes, rows.edges));
  }

  /** Either format; the node types are the API's registry's (the pipeline types and tool nodes included). */
  #parse(document: unknown): ParseWorkflowResult {
    const options = { registry: this.registry } as const;
    if (typeof document === "string") return parseWorkflowDocument(document, options);
    return parseWorkflowValue(document, options);
  }
}

function documentError(issue: DocumentIssue): UserError {
  const where = issue.path ? `${issue.path}: ` : "";
  return userError("DOCUMENT_INVALID", `${where}${issue.message} (${issue.code})`, {
    path: issue.path ? ["document", issue.path] : ["document"],
  });
}

/** The API keeps tighter graph limits than the document format (see WORKFLOW_INPUT_LIMITS). */
function checkSize(workflow: Workflow): UserError[] {
  const errors: UserError[] = [];
  if (workflow.nodes.length > LIMITS.maxNodes) {
    errors.push(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxNodes} nodes; the document has ${workflow.nodes.length}`, { path: ["document", "nodes"] }));
  }
  if (workflow.edges.length > LIMITS.maxEdges) {
    errors.push(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxEdges} edges; the document has ${workflow.edges.length}`, { path: ["document", "edges"] }));
  }
  workflow.nodes.forEach((node, index) => {
    errors.push(...checkPosition(node.position, ["document", `nodes[${index}]`, "position"]));
  });
  return errors;
}
