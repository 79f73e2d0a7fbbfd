import { readScorers } from "@weft/engine";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { isUuid } from "../common/uuid.js";
import type { ExperimentService } from "./experiment.service.js";
import type { ExperimentObject } from "./experiment.type.js";
import type { PublishGateInput, PublishGateObject } from "./publish-gate.type.js";

/** The draft's content hash, and whether the rules accept it (WorkflowVersionService). */
export interface DraftHash {
  hash: string;
  valid: boolean;
}

/** What the gate's refusal and its experiments are checked against. */
interface GateCheck {
  refusals: UserError[];
  testedHash: string | null;
}

const PASS: GateCheck = { refusals: [], testedHash: null };

/**
 * The publish gate (SPEC-V3 §4): a workflow's `publishGate` and the check publishWorkflow makes with it —
 * an experiment on the draft (reused when one finished on the same content hash, dataset revision and
 * scorers), compared with one on the latest published version (reused the same way), refused with
 * PUBLISH_GATE_FAILED naming the scorers below `minMean` and the rows that regressed.
 */
export class PublishGateService {
  constructor(
    private readonly db: PrismaClient,
    private readonly experiments: ExperimentService,
  ) {}

  async get(workflowId: string): Promise<PublishGateObject | null> {
    const row = await this.db.workflow.findUnique({ where: { id: workflowId }, select: { publishGate: true } });
    return readGate(row?.publishGate ?? null);
  }

  /** Sets (or, with null, removes) a workflow's gate; the dataset must exist and the scorers be valid. */
  async set(workflowId: string, input: PublishGateInput | null): Promise<Outcome<PublishGateObject | null>> {
    if (!isUuid(workflowId) || !(await this.db.workflow.findUnique({ where: { id: workflowId }, select: { id: true } }))) return failure(notFoundError("workflow", workflowId, ["workflowId"]));
    if (input === null) {
      await this.db.workflow.update({ where: { id: workflowId }, data: { publishGate: Prisma.DbNull } });
      return success(null);
    }
    const errors: UserError[] = [];
    const read = readScorers(input.scorers);
    if (!read.ok) errors.push(...read.issues.map((issue) => userError(issue.code, issue.message, { path: ["gate", "scorers", ...issue.path] })));
    const minMean = input.minMean ?? null;
    if (minMean !== null && !(minMean >= 0 && minMean <= 1)) errors.push(userError("VALIDATION_FAILED", "minMean must be between 0 and 1", { path: ["gate", "minMean"] }));
    if (minMean === null && !input.noRegression) errors.push(userError("VALIDATION_FAILED", "a gate needs minMean, noRegression or both", { path: ["gate"] }));
    if (!isUuid(input.datasetId) || !(await this.db.dataset.findUnique({ where: { id: input.datasetId }, select: { id: true } }))) errors.push(notFoundError("dataset", input.datasetId, ["gate", "datasetId"]));
    if (errors.length > 0) return failure(...errors);
    const gate: PublishGateObject = { datasetId: input.datasetId, scorers: input.scorers, minMean, noRegression: input.noRegression ?? false };
    await this.db.workflow.update({ where: { id: workflowId }, data: { publishGate: gate as unknown as Prisma.InputJsonValue } });
    return success(gate);
  }

  /** A dataset a gate names cannot be deleted (DatasetService.guardDeletion). */
  async datasetInUse(datasetId: string): Promise<UserError | null> {
    const named = await this.db.workflow.count({ where: { publishGate: { path: ["datasetId"], equals: datasetId } } });
    return named > 0 ? userError("CONFLICT", `a workflow's publish gate uses dataset "${datasetId}"; change the gate first`, { path: ["id"] }) : null;
  }

  /** The check publishWorkflow makes (WorkflowVersionService.setPublishGate). Runs the experiments it needs and waits for them. */
  async check(workflowId: string, draftHash: () => Promise<DraftHash | null>): Promise<GateCheck> {
    const gate = isUuid(workflowId) ? await this.get(workflowId) : null;
    const draft = gate ? await draftHash() : null;
    if (!gate || draft === null) return PASS;
    const hash = draft.hash;
    // A draft the rules refuse runs no experiment: publishing refuses it with its violations. Its hash is
    // still what the gate saw, so an edit that makes it valid meanwhile is refused (CONFLICT), not ungated.
    if (!draft.valid) return { refusals: [], testedHash: hash };
    const dataset = await this.db.dataset.findUnique({ where: { id: gate.datasetId }, select: { revision: true } });
    if (!dataset) return { refusals: [userError("PUBLISH_GATE_FAILED", `the gate's dataset "${gate.datasetId}" no longer exists; change the gate`, { path: ["id"] })], testedHash: hash };
    const scope = { workflowId, datasetId: gate.datasetId, datasetRevision: dataset.revision };
    const candidate = await this.#experiment({ ...scope, contentHash: hash }, gate, { draft: true }, hash);
    if (!candidate.ok) return { refusals: candidate.errors, testedHash: hash };
    const refusals = [...(await this.#belowMinimum(candidate.value, gate))];
    if (gate.noRegression) {
      const latest = await this.db.workflowVersion.findFirst({ where: { workflowId }, orderBy: { number: "desc" }, select: { number: true, contentHash: true } });
      if (latest) {
        const baseline = await this.#experiment({ ...scope, contentHash: latest.contentHash }, gate, { version: latest.number }, null);
        if (!baseline.ok) return { refusals: baseline.errors, testedHash: hash };
        refusals.push(...(await this.#regressions(baseline.value, candidate.value, latest.number)));
      }
    }
    return { refusals, testedHash: hash };
  }

  /** A finished experiment on this content: reused, or run now and waited for. */
  async #experiment(
    where: { workflowId: string; contentHash: string; datasetId: string; datasetRevision: number },
    gate: PublishGateObject,
    target: { draft: true } | { version: number },
    draftHash: string | null,
  ): Promise<Outcome<ExperimentObject>> {
    const reused = await this.experiments.findReusable(where, gate.scorers);
    if (reused) return success(reused);
    const started = await this.experiments.start({ workflowId: where.workflowId, datasetId: where.datasetId, scorers: gate.scorers, ...target }, draftHash);
    if (!started.ok) return failure(...started.errors.map((error) => ({ ...error, message: `the publish gate's experiment: ${error.message}` })));
    const finished = await this.experiments.awaitFinished(started.value.id);
    if (finished?.status !== "COMPLETED") return failure(userError("PUBLISH_GATE_FAILED", `the publish gate's experiment ${started.value.id} ended ${finished?.status ?? "missing"}`, { path: ["id"], experimentIds: [started.value.id] }));
    return success(finished);
  }

  async #belowMinimum(candidate: ExperimentObject, gate: PublishGateObject): Promise<UserError[]> {
    if (gate.minMean === null) return [];
    const summary = await this.experiments.summary(candidate);
    const failing = summary.scores.filter((score) => (score.mean ?? 0) < gate.minMean!);
    if (failing.length === 0) return [];
    const list = failing.map((score) => `${score.scorer} (mean ${(score.mean ?? 0).toFixed(3)})`).join(", ");
    return [userError("PUBLISH_GATE_FAILED", `experiment ${candidate.id}: scorers below the minimum mean ${gate.minMean}: ${list}`, { path: ["scorers", ...failing.map((score) => score.scorer)], experimentIds: [candidate.id] })];
  }

  async #regressions(baseline: ExperimentObject, candidate: ExperimentObject, version: number): Promise<UserError[]> {
    const regressed = await this.experiments.regressedRows(baseline.id, candidate.id);
    if (!regressed.ok) return regressed.errors;
    if (regressed.value.length === 0) return [];
    return [
      userError("PUBLISH_GATE_FAILED", `experiment ${candidate.id}: ${regressed.value.length} rows regressed against version ${version} (experiment ${baseline.id}): rows ${regressed.value.map((row) => row.position).join(", ")}`, {
        path: ["rows", ...regressed.value.map((row) => row.rowId)],
        experimentIds: [candidate.id, baseline.id],
      }),
    ];
  }
}

function readGate(value: unknown): PublishGateObject | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const gate = value as Partial<PublishGateObject>;
  return { datasetId: String(gate.datasetId ?? ""), scorers: gate.scorers ?? [], minMean: typeof gate.minMean === "number" ? gate.minMean : null, noRegression: gate.noRegression === true };
}
