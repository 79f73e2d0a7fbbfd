import { checkEdit, createNewWorkflow, describeNodeTypes, validateWorkflow, type NodeTypeDescription, type NodeTypeRegistry, type PromptSet, type Violation } from "@weft/engine";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import type { ServiceDeps } from "../../service-deps.js";
import { ModelCatalogService } from "../model/index.js";
import { afterCursorWhere, buildPage, readPage, type Page } from "../common/pagination.js";
import type { CreateWorkflowInput, UpdateWorkflowInput } from "./workflow.input.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import { checkName, checkSettings, checkText } from "./workflow-input.validation.js";
import { runWorkflowEdit } from "./workflow-edit.transaction.js";
import { refuse } from "../../errors/refusal.js";
import { countActiveRuns, findActiveRunId, loadWorkflow, LOCKED_TRANSACTION_OPTIONS, lockedWhileRunning, withLockedWorkflow, type LockedWorkflow } from "./workflow-lock.js";
import { hasSettingsEdit, readSettingsEdit, type SettingsEdit } from "./pipeline-input.validation.js";
import { settingsColumns } from "./workflow-settings.mapper.js";
import { insertWorkflow } from "./workflow-insert.js";
import { isUuid } from "../common/uuid.js";
import { AppError } from "../../errors/app-error.js";
import { readWorkflowRows, type WorkflowRows } from "./workflow-read.js";
import { promptsFromJson, toEdgeObject, toNodeObject, toWorkflowObject, workflowFromRows } from "./workflow.mapper.js";
import type { WorkflowNodeObject, WorkflowObject } from "./workflow.type.js";
import { WorkflowNodeService } from "./workflow-node.service.js";
import { WorkflowEdgeService } from "./workflow-edge.service.js";
import { WorkflowDocumentService } from "./workflow-document.service.js";
import type { WorkflowChangedMessage } from "../../pubsub.js";
import { WorkflowChanges } from "./workflow-changes.js";
import type { EventBus } from "../../pubsub.js";
import { notFoundError, userError, violationToUserError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";

interface Deletion {
  id: string;
  version: number;
}

export interface ListWorkflowsArgs {
  first?: number | null;
  after?: string | null;
  search?: string | null;
}

/** Workflows as a whole: list, read, create, update settings, delete, duplicate, validate. */
export class WorkflowService {
  readonly nodes: WorkflowNodeService;
  readonly edges: WorkflowEdgeService;
  readonly documents: WorkflowDocumentService;
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;
  private readonly models: ModelCatalogService;
  /** Announces committed changes (workflowChanged); without a bus, nobody is told. */
  readonly changes: WorkflowChanges;
  #nodeTypes: NodeTypeDescription[] | null = null;

  constructor(deps: Pick<ServiceDeps, "db" | "registry" | "llm">, bus?: EventBus) {
    this.db = deps.db;
    this.models = new ModelCatalogService(deps);
    this.registry = deps.registry;
    this.changes = new WorkflowChanges(bus);
    this.nodes = new WorkflowNodeService(deps, this.changes);
    this.edges = new WorkflowEdgeService(deps, this.changes);
    this.documents = new WorkflowDocumentService(deps, this.models);
  }

  /** Newest-updated first; `search` matches the name, case-insensitively. */
  /** Bad page arguments throw BAD_USER_INPUT (see readPage); an over-long search, LIMIT_EXCEEDED. */
  async list(args: ListWorkflowsArgs): Promise<Page<WorkflowObject>> {
    const page = readPage(args);
    const [tooLong] = checkText(args.search, ["search"], { max: LIMITS.maxNameLength });
    if (tooLong) throw new AppError(tooLong.code, tooLong.message, { extensions: { path: tooLong.path } });
    const search = args.search?.trim();
    const filter = search ? { name: { contains: search, mode: "insensitive" as const } } : {};
    const [rows, totalCount] = await Promise.all([
      this.db.workflow.findMany({
        where: page.after ? { AND: [filter, afterCursorWhere("updatedAt", page.after)] } : filter,
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        take: page.size + 1,
      }),
      this.db.workflow.count({ where: filter }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.updatedAt, (row) => toWorkflowObject(row));
  }

  async get(id: string): Promise<WorkflowObject | null> {
    const rows = await this.readRows(id);
    return rows && toWorkflowObject(rows.row, rows);
  }

  /** The graph alone, for list items whose nodes or edges are asked for. */
  async getGraph(id: string): Promise<NonNullable<WorkflowObject["graph"]>> {
    const rows = await this.readRows(id);
    return { nodes: rows?.nodes.map(toNodeObject) ?? [], edges: rows?.edges.map(toEdgeObject) ?? [] };
  }

  readRows(id: string): Promise<WorkflowRows | null> {
    return isUuid(id) ? readWorkflowRows(this.db, id) : Promise.resolve(null);
  }

  /** workflowChanged: live changes of a workflow that exists (NOT_FOUND otherwise, as runEvents answers). */
  async streamChanges(workflowId: string): Promise<AsyncIterableIterator<WorkflowChangedMessage>> {
    const exists = isUuid(workflowId) && (await this.db.workflow.count({ where: { id: workflowId } })) > 0;
    if (!exists) throw new AppError("NOT_FOUND", `workflow "${workflowId}" does not exist`, { extensions: { id: workflowId } });
    return this.changes.stream(workflowId);
  }

  /** The node-type registry's entries described as data (ports, fields as JSON Schema), for palettes and forms. */
  nodeTypes(): NodeTypeDescription[] {
    this.#nodeTypes ??= describeNodeTypes(this.registry);
    return this.#nodeTypes;
  }

  /** A node's output ports as its type's registry entry gives them (a router's from its config). */
  portsOf(node: Pick<WorkflowNodeObject, "id" | "type" | "config">): readonly string[] {
    return this.registry.portsOf({ id: node.id, type: node.type, ...(node.config ? { config: node.config } : {}) });
  }

  async activeRunId(workflowId: string): Promise<string | null> {
    return findActiveRunId(this.db, workflowId);
  }

  /** Every rule of SPEC §3 over the stored graph, MODEL_UNAVAILABLE against the configured models. */
  async validate(id: string): Promise<Violation[] | null> {
    const rows = await this.readRows(id);
    if (!rows) return null;
    const workflow = workflowFromRows(rows.row, rows.nodes, rows.edges);
    return validateWorkflow(workflow, { registry: this.registry, models: this.models.availableModels() });
  }

  /** A new workflow starts with one input connected to one output, and the default prompts. */
  async create(input: CreateWorkflowInput): Promise<Outcome<WorkflowObject>> {
    const invalid = checkSettings(input, true);
    if (invalid.length > 0) return failure(...invalid);
    const workflow = createNewWorkflow(input.name.trim());
    workflow.prompts = mergePrompts(workflow.prompts, input.prompts);
    if (input.outputFormat !== undefined && input.outputFormat !== null) workflow.outputFormat = input.outputFormat;
    workflow.knowledgeBase = input.knowledgeBase?.trim() || null;
    workflow.intensity = input.intensity ?? "LOW";
    const row = await this.db.$transaction((tx) => insertWorkflow(tx, workflow, input.description ?? ""), LOCKED_TRANSACTION_OPTIONS);
    return this.#reload(row.id);
  }

  /**
   * Settings (name, description, prompts, output format, knowledge base, intensity): allowed while a
   * run is active, since a run executes the snapshot taken when it started. The weft.workflow/v2
   * settings (loops, state channels, limits) change what the graph means: they are graph edits,
   * checked by the edit-time rules on the whole graph and refused while a run of the draft is active.
   */
  async update(id: string, input: UpdateWorkflowInput): Promise<Outcome<WorkflowObject>> {
    const invalid = checkSettings(input, false);
    const settings = hasSettingsEdit(input) ? readSettingsEdit(this.registry, input) : null;
    if (settings && !settings.ok) invalid.push(...settings.errors);
    if (invalid.length > 0) return failure(...invalid);
    if (!isUuid(id)) return failure(notFoundError("workflow", id));
    const outcome = await runWorkflowEdit(this.db, id, async (tx, workflow) => {
      const pipeline = settings?.ok ? await this.#checkSettingsEdit(tx, workflow, settings.edit) : {};
      await tx.workflow.update({
        where: { id },
        data: {
          ...(input.name != null ? { name: input.name.trim() } : {}),
          ...(input.description != null ? { description: input.description } : {}),
          ...(input.prompts ? { prompts: mergePrompts(promptsFromJson(workflow.row.prompts), input.prompts) } : {}),
          ...(input.outputFormat != null ? { outputFormat: input.outputFormat } : {}),
          ...(input.knowledgeBase !== undefined ? { knowledgeBase: input.knowledgeBase?.trim() || null } : {}),
          ...(input.intensity != null ? { intensity: input.intensity } : {}),
          ...pipeline,
        },
      });
    }, this.changes, ["id"]);
    return outcome.ok ? this.#reload(id) : outcome;
  }

  /** checkEdit updateSettings on the whole graph; the columns to write for the settings the edit sets. */
  async #checkSettingsEdit(tx: Prisma.TransactionClient, workflow: LockedWorkflow, edit: SettingsEdit): Promise<Partial<ReturnType<typeof settingsColumns>>> {
    if (workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId));
    const violations = checkEdit(await loadWorkflow(tx, workflow), { kind: "updateSettings", ...edit }, { registry: this.registry });
    if (violations.length > 0) refuse(...violations.map(violationToUserError));
    const columns = settingsColumns(edit);
    return Object.fromEntries((["loops", "state", "limits"] as const).filter((key) => edit[key] !== undefined).map((key) => [key, columns[key]]));
  }

  /**
   * Deletes the workflow with its published versions and all its runs (node runs and events too), so
   * nothing is left that refers to what is gone. Refused while any of its runs, of any version, is
   * active: it would lose its workflow mid-run.
   */
  async delete(id: string): Promise<Outcome<string>> {
    if (!isUuid(id)) return failure(notFoundError("workflow", id));
    const result = await withLockedWorkflow(
      this.db,
      id,
      async (tx): Promise<Deletion> => {
        const active = await countActiveRuns(tx, id);
        if (active > 0) refuse(activeRunsError(active));
        const gone = await tx.workflow.delete({ where: { id } });
        return { id, version: gone.version + 1 };
      },
      { notFoundPath: ["id"] },
    );
    if (!result.ok) return result;
    await this.changes.committed(result.value, true);
    return success(id);
  }

  /** A copy with the same settings, nodes and edges (edge order kept), named "<name> (copy)". */
  async duplicate(id: string, name?: string | null): Promise<Outcome<WorkflowObject>> {
    const invalid = checkName(name, ["name"], false);
    if (invalid.length > 0) return failure(...invalid);
    const rows = await this.readRows(id);
    if (!rows) return failure(notFoundError("workflow", id));
    const workflow = workflowFromRows(rows.row, rows.nodes, rows.edges);
    workflow.name = name?.trim() || copyName(rows.row.name);
    const row = await this.db.$transaction((tx) => insertWorkflow(tx, workflow, rows.row.description), LOCKED_TRANSACTION_OPTIONS);
    return this.#reload(row.id);
  }

  async #reload(id: string): Promise<Outcome<WorkflowObject>> {
    const workflow = await this.get(id);
    return workflow ? success(workflow) : failure(notFoundError("workflow", id));
  }
}

function activeRunsError(count: number): UserError {
  const runs = count === 1 ? "a run is" : `${count} runs are`;
  return userError("LOCKED_WHILE_RUNNING", `the workflow cannot be deleted while ${runs} active; wait for them to end or cancel them`);
}

export function copyName(name: string): string {
  const suffix = " (copy)";
  return name.slice(0, LIMITS.maxNameLength - suffix.length) + suffix;
}

function mergePrompts(
  base: PromptSet,
  input: { generation?: string | null; ensemble?: string | null; validation?: string | null } | null | undefined,
): PromptSet {
  const merged = { ...base };
  for (const type of ["generation", "ensemble", "validation"] as const) {
    const text = input?.[type];
    if (text !== undefined && text !== null) merged[type] = text;
  }
  return merged;
}
