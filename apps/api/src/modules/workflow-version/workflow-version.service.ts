import { stringifyWorkflow, validateWorkflow } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { AuthInfo } from "../../auth/auth-info.js";
import type { ServiceDeps } from "../../service-deps.js";
import type { ModelCatalogService } from "../model/index.js";
import { readOffsetCursor, readPage, type Page } from "../common/pagination.js";
import { checkText, readWorkflow, withLockedDraft, type AfterImport } from "../workflow/index.js";
import { isUuid } from "../common/uuid.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { refuse } from "../../errors/refusal.js";
import { notFoundError, userError, violationToUserError, type UserError } from "../../errors/user-error.type.js";
import { contentHash } from "./workflow-content-hash.js";
import { compareWorkflowDocuments } from "./workflow-comparison.js";
import { documentOf, HEAD, insertVersion, MAX_NOTE_LENGTH, type VersionHead } from "./workflow-version-insert.js";
import { VersionContentCache, type VersionContent } from "./version-content-cache.js";
import { toVersionObject, VERSION_CURSOR, versionPage } from "./workflow-version.mapper.js";
import type { WorkflowComparisonObject, WorkflowVersionObject } from "./workflow-version.type.js";

/**
 * What publishing asks first (the evaluations' publish gate, set by the server): the refusals for this
 * workflow's draft, none when it may be published. `draftHash` reads the draft's content hash (what the
 * gate's experiment must have run).
 */
export type PublishGateCheck = (workflowId: string, draftHash: () => Promise<{ hash: string; valid: boolean } | null>) => Promise<{ refusals: UserError[]; testedHash: string | null }>;

/**
 * Published versions of workflows: publish (freeze the workflow as it is now), list, read, compare,
 * export, and the parsed content that runs of a version execute.
 */
export class WorkflowVersionService {
  readonly #db: PrismaClient;
  readonly #deps: Pick<ServiceDeps, "db" | "registry">;
  readonly #contents: VersionContentCache;
  #gate: PublishGateCheck | null = null;

  constructor(
    deps: Pick<ServiceDeps, "db" | "registry">,
    private readonly models: ModelCatalogService,
  ) {
    this.#db = deps.db;
    this.#deps = deps;
    this.#contents = new VersionContentCache(deps.registry);
  }

  /**
   * Freezes the workflow's graph, prompts and settings as its next numbered version. Takes the row
   * lock every edit takes, so the version holds exactly one edit's result and concurrent publishes
   * get consecutive numbers. A graph that breaks a rule (run-time rules included: API runs default to
   * the latest version) is refused with every violation.
   */
  async publish(workflowId: string, note: string | null | undefined, auth: AuthInfo): Promise<Outcome<WorkflowVersionObject>> {
    const invalid = checkText(note, ["note"], { max: MAX_NOTE_LENGTH });
    if (invalid.length > 0) return failure(...invalid);
    if (!isUuid(workflowId)) return failure(notFoundError("workflow", workflowId, ["workflowId"]));
    const gate = this.#gate ? await this.#gate(workflowId, () => this.#draftHash(workflowId)) : { refusals: [], testedHash: null };
    if (gate.refusals.length > 0) return failure(...gate.refusals);
    const outcome = await withLockedDraft(
      this.#db,
      workflowId,
      async (tx, { workflow, editVersion }): Promise<VersionHead> => {
        const violations = this.#violations(workflow);
        if (violations.length > 0) refuse(...violations.map(violationToUserError));
        // The gate passed what its experiment ran: an edit since then is published only after its own.
        if (gate.testedHash !== null && contentHash(documentOf(workflow)) !== gate.testedHash) {
          refuse(userError("CONFLICT", "the draft changed while its publish gate ran; publish again", { path: ["id"] }));
        }
        return insertVersion(tx, { workflowId, workflow, editVersion, note: note ?? "", auth });
      },
      { notFoundPath: ["workflowId"] },
    );
    return outcome.ok ? success(toVersionObject(outcome.value)) : outcome;
  }

  /** The publish gate publishing asks first (one per server: the experiment module's). */
  setPublishGate(gate: PublishGateCheck): void {
    this.#gate = gate;
  }

  /**
   * The draft's content hash for its publish gate, and whether the rules accept it (no experiment runs for
   * a draft they refuse: the validation under the lock refuses it with its violations); null without one.
   */
  async #draftHash(workflowId: string): Promise<{ hash: string; valid: boolean } | null> {
    const workflow = await readWorkflow(this.#db, workflowId);
    if (!workflow) return null;
    return { hash: contentHash(documentOf(workflow)), valid: this.#violations(workflow).length === 0 };
  }

  #violations(workflow: Parameters<typeof validateWorkflow>[0]) {
    return validateWorkflow(workflow, { registry: this.#deps.registry, models: this.models.availableModels() });
  }

  /**
   * What an import that publishes runs in its transaction: the imported workflow becomes its version 1.
   * Refused (before anything is stored) when the note is too long.
   */
  publishOnImport(note: string, auth: AuthInfo): Outcome<AfterImport> {
    const tooLong = checkText(note, ["note"], { max: MAX_NOTE_LENGTH });
    if (tooLong.length > 0) return failure(...tooLong);
    return success((tx, created, workflow) => insertVersion(tx, { workflowId: created.id, workflow, editVersion: created.version, note, auth }));
  }

  /** Newest first. */
  async list(workflowId: string, args: { first?: number | null; after?: string | null }): Promise<Outcome<Page<WorkflowVersionObject>>> {
    const size = readPage({ first: args.first });
    const before = args.after ? readOffsetCursor(VERSION_CURSOR, args.after) : null;
    if (!isUuid(workflowId)) return success(versionPage([], size.size, 0));
    const where = { workflowId };
    const [rows, totalCount] = await Promise.all([
      this.#db.workflowVersion.findMany({
        where: before === null ? where : { ...where, number: { lt: before } },
        omit: HEAD,
        orderBy: { number: "desc" },
        take: size.size + 1,
      }),
      this.#db.workflowVersion.count({ where }),
    ]);
    return success(versionPage(rows, size.size, totalCount));
  }

  async get(workflowId: string, number: number): Promise<WorkflowVersionObject | null> {
    const row = await this.#head(workflowId, number);
    return row && toVersionObject(row);
  }

  /** The latest published version; null while none is. */
  async latest(workflowId: string): Promise<WorkflowVersionObject | null> {
    if (!isUuid(workflowId)) return null;
    const row = await this.#db.workflowVersion.findFirst({ where: { workflowId }, omit: HEAD, orderBy: { number: "desc" } });
    return row && toVersionObject(row);
  }

  /** What a version holds, parsed once per process (versions never change). */
  content(versionId: string): Promise<VersionContent> {
    return this.#contents.get(versionId, async () => {
      const row = await this.#db.workflowVersion.findUniqueOrThrow({ where: { id: versionId }, select: { document: true } });
      return row.document;
    });
  }

  /** What several versions hold (a page of MCP tools): the ones not parsed yet are read in one query. */
  contents(versionIds: readonly string[]): Promise<Map<string, VersionContent>> {
    return this.#contents.getMany(versionIds, async (missing) => {
      const rows = await this.#db.workflowVersion.findMany({ where: { id: { in: missing } }, select: { id: true, document: true } });
      return new Map(rows.map((row) => [row.id, row.document]));
    });
  }

  /**
   * What changed from version `from` to version `to`, or to the draft when `to` is null. Refused with
   * NOT_FOUND naming the argument when the workflow or a version does not exist.
   */
  async compare(workflowId: string, from: number, to: number | null): Promise<Outcome<WorkflowComparisonObject>> {
    const before = await this.#document(workflowId, from, ["from"]);
    if (!before.ok) return before;
    const after = to === null ? await this.#draftDocument(workflowId) : await this.#document(workflowId, to, ["to"]);
    if (!after.ok) return after;
    return success({ workflowId, from, to, ...compareWorkflowDocuments(before.value, after.value) });
  }

  /** A version as a document (pretty JSON text, as exportWorkflow writes the draft); null when there is none. */
  async export(workflowId: string, number: number): Promise<string | null> {
    const row = await this.#head(workflowId, number);
    return row && stringifyWorkflow((await this.content(row.id)).workflow);
  }

  async #head(workflowId: string, number: number): Promise<VersionHead | null> {
    if (!isUuid(workflowId) || !Number.isSafeInteger(number)) return null;
    return this.#db.workflowVersion.findUnique({ where: { workflowId_number: { workflowId, number } }, omit: HEAD });
  }

  async #document(workflowId: string, number: number, path: string[]): Promise<Outcome<Record<string, unknown>>> {
    const row = await this.#head(workflowId, number);
    if (!row) return failure(userError("NOT_FOUND", `workflow "${workflowId}" has no version ${number}`, { path }));
    return success((await this.content(row.id)).document);
  }

  async #draftDocument(workflowId: string): Promise<Outcome<Record<string, unknown>>> {
    const workflow = isUuid(workflowId) ? await readWorkflow(this.#db, workflowId) : null;
    if (!workflow) return failure(notFoundError("workflow", workflowId, ["workflowId"]));
    return success(documentOf(workflow));
  }
}
