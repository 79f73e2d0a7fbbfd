import { resolveRunLimits, type RunLimits } from "../limits/run-limits.js";
import { measureJson } from "../limits/json-measure.js";
import { WeftError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import type { RuleCode, Violation } from "../model/violation.js";
import type { Workflow, WorkflowGraph } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { AvailableModel } from "../rules/model-rules.js";
import { invocationBudget, validateWorkflow } from "../rules/validate-workflow.js";
import { DEFAULT_TOP_K, resolveRunSettings, type RunRequest, type RunSettings, type TopKByIntensity } from "./run-settings.js";

/**
 * Names the shape of a PreparedRun; a reader refuses any other (see parsePreparedRun). A change of the
 * shape gets a new format name, and the reader learns to read (or migrate) both.
 */
export const PREPARED_RUN_FORMAT = "weft.run/1";

export const DEFAULT_CONCURRENCY = 16;

/**
 * Everything a run executes, decided once before it starts: the workflow that passed every rule, the
 * settings resolved from the request and the host's policy, the contents supplied for input nodes, the
 * starting state and the run's limits. A plain JSON value, so it can be stored (the API keeps it as the
 * run's snapshot) and handed to a worker; runWorkflow executes it as it is and resolves nothing again.
 */
export interface PreparedRun {
  format: typeof PREPARED_RUN_FORMAT;
  workflow: Workflow;
  settings: RunSettings;
  /** Content for input nodes by node id; replaces the node's stored content for this run. */
  inputs: Record<string, string>;
  /** Starting values of state channels by channel name (a channel left out starts empty). */
  state: Record<string, JsonValue>;
  /** Nodes of this run executing at once; null: no cap. */
  concurrency: number | null;
  /** Node invocations the run may start (SPEC-V2 §4): the workflow's limit, lowered by the host's ceiling. */
  maxInvocations: number;
  /** What every value of the run must stay within (SPEC-V3 §1); absent in runs prepared before there were limits: the defaults. */
  limits?: RunLimits;
}

/** What the host decides about runs (the API from its environment, the CLI from its own). */
export interface RunPolicy {
  /** The node types the workflow may use (`builtInRegistry`, or the host's own). */
  registry: NodeTypeRegistry;
  /** Configured provider/model pairs for MODEL_UNAVAILABLE; omitted: that rule is not checked. */
  models?: readonly AvailableModel[];
  /** Knowledge bases that exist; omitted: not checked (a missing one then fails its nodes at run time). */
  knowledgeBases?: readonly string[];
  /** top_k per search intensity (default LOW 3, MEDIUM 5, HIGH 10). */
  topK?: Partial<TopKByIntensity>;
  /** Ask the model once more, with the parser's message, when its reply does not parse (default true). */
  parseRepair?: boolean;
  /** Nodes of one run executing at once (default 16; `Infinity` for no cap). */
  concurrency?: number;
  /** An operator's ceiling on node invocations per run, on top of the workflow's `limits.maxInvocations`. */
  maxInvocations?: number;
  /** Value, output, run and expression limits (SPEC-V3 §1) over DEFAULT_RUN_LIMITS. */
  limits?: Partial<RunLimits>;
}

/** Codes of a request that does not fit the workflow (the graph's own problems carry rule codes). */
export type RunRequestCode = "RUN_INPUT_INVALID" | "KNOWLEDGE_BASE_NOT_FOUND" | "VALUE_TOO_DEEP" | "RUN_TOO_LARGE" | "VALUE_NOT_JSON";

/** One reason a run cannot start: a broken rule (a Violation) or a request that does not fit the workflow. */
export interface RunViolation extends Omit<Violation, "code"> {
  code: RuleCode | RunRequestCode;
  /**
   * Set when the request is at fault: the field of RunRequest, e.g. `["inputs", nodeId]`,
   * `["state", channel]` or `["knowledgeBase"]` (Violation's `path` is a body path, a different thing).
   */
  requestPath?: string[];
}

export type PrepareRunResult = { ok: true; run: PreparedRun } | { ok: false; violations: RunViolation[] };

/**
 * Checks a workflow and a request against every rule at once and, when nothing is wrong, freezes what
 * the run will execute. Pure: no I/O, the same answer in the API, the CLI and tests. A policy that is
 * itself invalid (top_k below one, a fractional concurrency) is the host's bug and throws WeftError.
 */
export function prepareRun(workflow: Workflow, request: RunRequest, policy: RunPolicy): PrepareRunResult {
  const rules = validateWorkflow(workflow, {
    registry: policy.registry,
    ...(policy.models ? { models: policy.models } : {}),
    ...(policy.maxInvocations !== undefined ? { maxInvocations: policy.maxInvocations } : {}),
  });
  const prepared = prepareRunUnchecked(workflow, request, policy);
  if (rules.length === 0) return prepared;
  return { ok: false, violations: [...rules, ...(prepared.ok ? [] : prepared.violations)] };
}

/**
 * prepareRun without the graph's rules, for a workflow the caller has checked itself or means to run
 * as it is (the runner's own tests run broken graphs on purpose): resolves the settings and checks the
 * request only. A graph that cannot be scheduled is then refused by runWorkflow before RUN_STARTED.
 */
export function prepareRunUnchecked(workflow: Workflow, request: RunRequest, policy: RunPolicy): PrepareRunResult {
  const { registry } = policy;
  const concurrency = checkConcurrency(policy.concurrency ?? DEFAULT_CONCURRENCY);
  const limits = resolveRunLimits(policy.limits);
  const settings = resolveRunSettings(workflow, request, {
    topK: checkTopK({ ...DEFAULT_TOP_K, ...policy.topK }),
    parseRepair: policy.parseRepair ?? true,
    streamTokens: request.streamTokens ?? false,
  });
  const inputs = request.inputs ?? {};
  const state = request.state ?? {};
  const violations: RunViolation[] = [
    ...checkInputs(workflow, inputs, registry),
    ...checkState(workflow, state, limits),
    ...checkKnowledgeBase(settings.knowledgeBase, policy.knowledgeBases),
  ];
  if (violations.length > 0) return { ok: false, violations };
  const maxInvocations = invocationBudget(workflow, countNodes(workflow, registry), policy.maxInvocations);
  return {
    ok: true,
    run: { format: PREPARED_RUN_FORMAT, workflow, settings, inputs: { ...inputs }, state: { ...state }, concurrency, maxInvocations, limits },
  };
}

/** Supplied contents must be text for nodes that take no pre-node (input nodes). */
function checkInputs(workflow: Workflow, inputs: Record<string, string>, registry: NodeTypeRegistry): RunViolation[] {
  const byId = new Map(workflow.nodes.map((node) => [node.id, node]));
  const violations: RunViolation[] = [];
  for (const [nodeId, content] of Object.entries(inputs)) {
    const node = byId.get(nodeId);
    const spec = node ? registry.get(node.type) : undefined;
    const requestPath = ["inputs", nodeId];
    if (!node || (spec && spec.inDegree.max !== 0)) {
      const why = node ? `"${nodeId}" is not an input node` : `there is no node "${nodeId}"`;
      const message = `content was supplied for a node that cannot take it: ${why}`;
      violations.push({ code: "RUN_INPUT_INVALID", message, nodeIds: node ? [nodeId] : [], edgeIds: [], requestPath });
    } else if (typeof content !== "string") {
      const message = `content supplied for node "${nodeId}" must be text`;
      violations.push({ code: "RUN_INPUT_INVALID", message, nodeIds: [nodeId], edgeIds: [], requestPath });
    }
  }
  return violations;
}

/**
 * Starting state may only name channels the workflow declares, and passes the value gate's depth (its
 * size is the run's to count: a thread's channels grow turn by turn).
 */
function checkState(workflow: Workflow, state: Record<string, JsonValue>, limits: RunLimits): RunViolation[] {
  const channels = workflow.state ?? {};
  const violations: RunViolation[] = [];
  for (const [name, value] of Object.entries(state)) {
    const requestPath = ["state", name];
    if (!Object.hasOwn(channels, name)) {
      const message = `a starting value was supplied for state channel "${name}", which the workflow does not declare`;
      violations.push({ code: "RUN_INPUT_INVALID", message, nodeIds: [], edgeIds: [], requestPath });
      continue;
    }
    const measure = measureJson(value, { maxDepth: limits.maxValueDepth, maxBytes: limits.maxRunBytes });
    const what = `the starting value of state channel "${name}"`;
    if (measure.problem === "depth") {
      violations.push({ code: "VALUE_TOO_DEEP", message: `${what} is nested deeper than ${limits.maxValueDepth} levels`, nodeIds: [], edgeIds: [], requestPath });
    } else if (measure.problem === "bytes") {
      violations.push({ code: "RUN_TOO_LARGE", message: `${what} is larger than the run may store`, nodeIds: [], edgeIds: [], requestPath });
    } else if (measure.problem === "notJson") {
      violations.push({ code: "VALUE_NOT_JSON", message: `${what} is not JSON`, nodeIds: [], edgeIds: [], requestPath });
    }
  }
  return violations;
}

function checkKnowledgeBase(name: string | null, existing: readonly string[] | undefined): RunViolation[] {
  if (!name || !existing || existing.includes(name)) return [];
  const message = `knowledge base "${name}" does not exist`;
  return [{ code: "KNOWLEDGE_BASE_NOT_FOUND", message, nodeIds: [], edgeIds: [], requestPath: ["knowledgeBase"] }];
}

/** Nodes of the graph and of its bodies, at any depth (the default run budget is at least one per node). */
function countNodes(graph: WorkflowGraph, registry: NodeTypeRegistry): number {
  let count = graph.nodes.length;
  for (const node of graph.nodes) {
    const body = registry.get(node.type)?.body?.graph(node);
    if (body) count += countNodes(body, registry);
  }
  return count;
}

function checkConcurrency(concurrency: number): number | null {
  if (!(concurrency >= 1) || (Number.isFinite(concurrency) && !Number.isInteger(concurrency))) {
    throw new WeftError("INVALID_CONCURRENCY", `concurrency must be a whole number ≥ 1 or Infinity, not ${concurrency}`, {
      audience: "internal",
    });
  }
  return Number.isFinite(concurrency) ? concurrency : null;
}

function checkTopK(topK: TopKByIntensity): TopKByIntensity {
  if (Object.values(topK).some((k) => !Number.isInteger(k) || k < 1)) {
    throw new WeftError("INVALID_TOP_K", "top_k for every intensity must be a whole number ≥ 1", { audience: "internal" });
  }
  return topK;
}
