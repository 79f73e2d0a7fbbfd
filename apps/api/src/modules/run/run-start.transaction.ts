import { prepareRun, threadStateOf, workflowUsesThread, type JsonValue, type NodeTypeRegistry, type PreparedRun, type RunPolicy, type RunViolation, type Workflow } from "@weft/engine";
import { Prisma, type PrismaClient, type Run as RunRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import type { TriggerKind } from "../common/trigger-kind.type.js";
import { isUuid } from "../common/uuid.js";
import { claimThread } from "../thread/index.js";
import { withLockedDraft, type DraftSnapshots } from "../workflow/index.js";
import type { VersionContent } from "../workflow-version/index.js";
import type { RunTarget, StoredRunRequest } from "./run-request.validation.js";
import { insertRunRowIf, isForeignKeyViolation, type NewRun } from "./run-insert.js";
import { userError, violationToUserError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { refuse, withRefusals } from "../../errors/refusal.js";

export interface StartDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** Everything prepareRun needs from the server but the knowledge bases, which are read per start. */
  policy: Omit<RunPolicy, "registry">;
  /** A published version's parsed content (cached: versions never change). */
  versionContent(versionId: string): Promise<VersionContent>;
  /** Drafts read without the workflow's lock, their graphs kept per edit version. */
  drafts: DraftSnapshots;
}

/** A published version, found by number or (re-runs) by id. */
interface PinnedVersion {
  id: string;
  number: number;
}

/** Where a run comes from: a target named by the client, or the version a re-run repeats. */
export type StartTarget = RunTarget | { kind: "pinned"; version: PinnedVersion | null };

export interface StartRequest {
  workflowId: string;
  request: StoredRunRequest;
  /** The node ids of `input.inputs` in the order given, for error paths. */
  inputNodeIds: readonly string[];
  target: StartTarget;
  apiKeyId: string | null;
  rerunOfId?: string | null;
  /** The thread the run continues (input.threadId); absent: a new thread when the workflow reads one. */
  threadId?: string | null;
  /** The webhook or schedule that starts the run; absent for runs started through the API. */
  trigger?: { id: string; kind: TriggerKind } | null;
  /** The trigger's claimed firing the run is for (NewRun.firingId): stored only while the claim is still this one's. */
  firingId?: string | null;
  /** A trigger's call without a claim: its firing is recorded with the run (NewRun.recordFiring). */
  recordFiring?: boolean;
  /** The experiment whose row the run is; absent for every other run. */
  experimentId?: string | null;
}

/** The thread a run joins and the thread channels it starts from; null when it runs on none. */
interface JoinedThread {
  threadId: string | null;
  state: Record<string, JsonValue>;
}

const NO_THREAD: JoinedThread = { threadId: null, state: {} };

/**
 * Accepts a run or refuses it with every reason, then stores it QUEUED with its node runs PENDING.
 * The engine's prepareRun checks the whole graph (MODEL_UNAVAILABLE against the configured providers),
 * the knowledge base and the input contents, and freezes what the run executes as its snapshot.
 *
 * A run of a published version reads the version's content (immutable, cached) and takes no lock on
 * the workflow: any number of them start and run at once, and edits never wait for them. A run of the
 * draft starts from the graph one committed edit left, stored under the workflow's row lock (the lock
 * every edit takes), and an edit after it sees it (and is refused while it is active): see startDraftRun.
 * Runs of the draft do not refuse each other.
 */
export async function startRunTransaction(deps: StartDeps, start: StartRequest): Promise<Outcome<RunRow>> {
  if (!isUuid(start.workflowId)) return failure(workflowNotFound(start.workflowId));
  const resolved = await resolveVersion(deps.db, start.workflowId, start.target);
  if (!resolved.ok) return resolved;
  try {
    const { version, draftVersion } = resolved.value;
    if (version) return await startVersionRun(deps, start, version);
    return await startDraftRun(deps, start, draftVersion);
  } catch (error) {
    // The workflow was deleted between reading its version and storing the run (foreign key).
    if (isForeignKeyViolation(error)) return failure(workflowNotFound(start.workflowId));
    throw error;
  }
}

/**
 * The version a target names, null meaning the draft (asked for, or no version published yet); when the
 * read saw the draft's edit version (`draftVersion`), a kept graph of it needs no second read.
 */
interface ResolvedVersion {
  version: PinnedVersion | null;
  draftVersion: number | null;
}

async function resolveVersion(db: PrismaClient, workflowId: string, target: StartTarget): Promise<Outcome<ResolvedVersion>> {
  switch (target.kind) {
    case "draft":
      return success({ version: null, draftVersion: null });
    case "pinned":
      return success({ version: target.version, draftVersion: null });
    case "latest": {
      const latest = await latestVersion(db, workflowId);
      return latest ? success(latest) : failure(workflowNotFound(workflowId));
    }
    case "version": {
      const found = await db.workflowVersion.findUnique({ where: { workflowId_number: { workflowId, number: target.number } }, select: { id: true, number: true } });
      if (found) return success({ version: found, draftVersion: null });
      const exists = await db.workflow.findUnique({ where: { id: workflowId }, select: { id: true } });
      if (!exists) return failure(workflowNotFound(workflowId));
      return failure(userError("NOT_FOUND", `workflow "${workflowId}" has no published version ${target.number}`, { path: ["input", "version"] }));
    }
  }
}

/**
 * The workflow's latest published version (null before the first publish) and its draft's edit version,
 * in one statement; null when the workflow does not exist. On the path of every run, so kept planned.
 */
async function latestVersion(db: PrismaClient, workflowId: string): Promise<ResolvedVersion | null> {
  const [row] = await db.$queryRaw<{ id: string | null; number: number | null; draftVersion: number }[]>(
    planned(Prisma.sql`SELECT v.id, v.number, w."version" AS "draftVersion" FROM "Workflow" w
      LEFT JOIN LATERAL (SELECT id, number FROM "WorkflowVersion" WHERE "workflowId" = w.id ORDER BY number DESC LIMIT 1) v ON true
      WHERE w.id = ${workflowId}`),
  );
  if (!row) return null;
  return { version: row.id === null || row.number === null ? null : { id: row.id, number: row.number }, draftVersion: row.draftVersion };
}

/**
 * A run of a version on no thread takes no lock at all; on a thread, the thread's row lock (claimThread)
 * in one transaction with the run's insert, so two starts on one thread are decided one after the other.
 */
async function startVersionRun(deps: StartDeps, start: StartRequest, version: PinnedVersion): Promise<Outcome<RunRow>> {
  const { workflow } = await deps.versionContent(version.id);
  if (!runsOnThread(deps, workflow, start)) {
    const prepared = await prepare(deps, deps.db, workflow, start, NO_THREAD);
    if (!prepared.ok) return prepared;
    const row = await insertRun(deps.db, start, prepared.value, NO_THREAD, version);
    return row ? success(row) : failure(firingTaken(start));
  }
  return withRefusals(() =>
    deps.db.$transaction(async (tx) => {
      const thread = await joinThread(tx, workflow, start);
      const prepared = await prepare(deps, tx, workflow, start, thread);
      if (!prepared.ok) refuse(...prepared.errors);
      return (await insertRun(tx, start, prepared.value, thread, version)) ?? refuse(firingTaken(start));
    }),
  );
}

/**
 * The run starts from the draft as one committed edit left it, and an edit after it sees it (and is
 * refused while it is active). Off a thread: the draft is read without the lock and the run stored in one
 * statement guarded by the draft's edit version (DraftSnapshots), so a start takes no transaction; if an
 * edit committed in between, the guard stores nothing and the start is made again under the lock. On a
 * thread, or then: under the workflow's lock (withLockedDraft) in one transaction, as the thread's claim
 * needs one anyway.
 */
async function startDraftRun(deps: StartDeps, start: StartRequest, draftVersion: number | null): Promise<Outcome<RunRow>> {
  const draft = (draftVersion === null ? null : deps.drafts.kept(start.workflowId, draftVersion)) ?? (await deps.drafts.read(deps.db, start.workflowId));
  if (draft && !runsOnThread(deps, draft.workflow, start)) {
    const prepared = await prepare(deps, deps.db, draft.workflow, start, NO_THREAD);
    // Refused as the draft was when read: the start took effect then, like one that took the lock then.
    if (!prepared.ok) return prepared;
    const row = await insertRunRowIf(deps.db, newRun(start, prepared.value, NO_THREAD, null, draft.editVersion), draft.guard);
    if (row) return success(row);
  }
  return withLockedDraft(deps.db, start.workflowId, async (tx, { workflow, editVersion }) => {
    const thread = runsOnThread(deps, workflow, start) ? await joinThread(tx, workflow, start) : NO_THREAD;
    const prepared = await prepare(deps, tx, workflow, start, thread);
    if (!prepared.ok) refuse(...prepared.errors);
    return (await insertRun(tx, start, prepared.value, thread, null, editVersion)) ?? refuse(firingTaken(start));
  });
}

/** A run is on a thread when the client names one, or when the workflow reads one (SPEC-V2 §7). */
function runsOnThread(deps: StartDeps, workflow: Workflow, start: StartRequest): boolean {
  return (start.threadId ?? null) !== null || workflowUsesThread(workflow, deps.registry);
}

/** Claims the named thread (THREAD_BUSY while a run of it is active) or creates one; refuses (rolls back) otherwise. */
async function joinThread(tx: Prisma.TransactionClient, workflow: Workflow, start: StartRequest): Promise<JoinedThread> {
  const claimed = await claimThread(tx, start.workflowId, start.threadId ?? null);
  if (!claimed.ok) refuse(...claimed.errors);
  return { threadId: claimed.value.threadId, state: threadStateOf(claimed.value.state, workflow) };
}

async function prepare(deps: StartDeps, db: Prisma.TransactionClient, workflow: Workflow, start: StartRequest, thread: JoinedThread): Promise<Outcome<PreparedRun>> {
  const knowledgeBases = await existingKnowledgeBases(db, [start.request.knowledgeBase, workflow.knowledgeBase]);
  // The thread's state goes into what the run executes, not into its stored request (a re-run starts anew).
  const request = thread.threadId === null ? start.request : { ...start.request, state: thread.state };
  const prepared = prepareRun(workflow, request, { ...deps.policy, registry: deps.registry, knowledgeBases });
  if (!prepared.ok) return failure(...prepared.violations.map((violation) => toUserError(violation, start.inputNodeIds)));
  return success(prepared.run);
}

/**
 * The run and the top-level invocation of each top-level node, PENDING, in one statement (run-insert.ts);
 * later invocations (loop iterations, map items, bodies) get their node runs from their first event.
 * `editVersion`: a run of the draft, the edit version it starts from.
 */
function insertRun(
  db: Prisma.TransactionClient,
  start: StartRequest,
  prepared: PreparedRun,
  thread: JoinedThread,
  version: PinnedVersion | null,
  editVersion: number | null = null,
): Promise<RunRow | null> {
  return insertRunRowIf(db, newRun(start, prepared, thread, version, editVersion), null);
}

function newRun(start: StartRequest, prepared: PreparedRun, thread: JoinedThread, version: PinnedVersion | null, editVersion: number | null): NewRun {
  return {
    workflowId: start.workflowId,
    request: start.request as unknown as Prisma.InputJsonObject,
    snapshot: prepared as unknown as Prisma.InputJsonObject,
    versionId: version?.id ?? null,
    versionNumber: version?.number ?? null,
    editVersion,
    rerunOfId: start.rerunOfId ?? null,
    apiKeyId: start.apiKeyId,
    threadId: thread.threadId,
    trigger: start.trigger ?? null,
    firingId: start.firingId ?? null,
    recordFiring: start.recordFiring ?? false,
    experimentId: start.experimentId ?? null,
    nodes: prepared.workflow.nodes,
  };
}

/** The run's firing was taken over by another process (this one took too long to store it): that one starts it. */
function firingTaken(start: StartRequest): UserError {
  return userError("CONFLICT", `the firing of trigger "${start.trigger?.id ?? "?"}" was taken over by another process; it starts the run`);
}

function workflowNotFound(workflowId: string): UserError {
  return userError("NOT_FOUND", `workflow "${workflowId}" does not exist`, { path: ["workflowId"] });
}

/** Which of the names the run may use (the request's or the workflow's) exist. */
async function existingKnowledgeBases(tx: Prisma.TransactionClient, names: (string | null | undefined)[]): Promise<string[]> {
  const candidates = names.filter((name): name is string => typeof name === "string" && name !== "");
  if (candidates.length === 0) return [];
  const rows = await tx.knowledgeBase.findMany({ where: { name: { in: candidates } }, select: { name: true } });
  return rows.map((row) => row.name);
}

/**
 * The engine's reasons in the API's terms: rule violations keep their codes; a request field at fault
 * keeps the API's input codes and points at the field as the client sent it (`input.inputs.<i>.nodeId`).
 */
function toUserError(violation: RunViolation, inputNodeIds: readonly string[]): UserError {
  const [field, nodeId] = violation.requestPath ?? [];
  const refs = { nodeIds: violation.nodeIds, edgeIds: violation.edgeIds };
  if (field === "inputs") {
    const index = inputNodeIds.indexOf(nodeId ?? "");
    return userError("VALIDATION_FAILED", violation.message, { ...refs, path: ["input", "inputs", String(index), "nodeId"] });
  }
  if (field === "knowledgeBase") return userError("NOT_FOUND", violation.message, { ...refs, path: ["input", "knowledgeBase"] });
  return violationToUserError(violation);
}
