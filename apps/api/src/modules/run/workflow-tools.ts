import {
  prepareRun,
  runWorkflow,
  WeftError,
  type ConcurrencyLimiter,
  type EventError,
  type LlmProviders,
  type NodeTypeRegistry,
  type Retriever,
  type RunEvent,
  type RunPolicy,
  type ToolProviders,
  type Workflow,
  type WorkflowToolCall,
  type WorkflowToolInfo,
  type WorkflowToolRef,
  type WorkflowToolResult,
  type WorkflowTools,
} from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { VersionContent } from "../workflow-version/index.js";

/** A workflow tool may call a workflow whose agent calls a workflow tool…: at most this deep. */
export const MAX_WORKFLOW_TOOL_DEPTH = 3;

const UNFIT_NAME_CHARACTER = /[^A-Za-z0-9_-]+/g;
const DESCRIPTION_LENGTH = 2_000;

export interface WorkflowToolDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  policy: Omit<RunPolicy, "registry">;
  versionContent(versionId: string): Promise<VersionContent>;
  llm: LlmProviders;
  retriever: Retriever | null;
  /** The other tools the called workflow's nodes may use (its own workflow tools are added here, one level deeper). */
  tools: Omit<ToolProviders, "workflowVersion" | "workflows">;
  /** The process-wide cap on node executions: the called workflow's nodes take slots like any run's. */
  limiter: ConcurrencyLimiter;
  /** Sees the called workflow's events (they are not stored): the metrics count its nodes, tokens and cost. */
  observe?: ((event: RunEvent) => void) | null;
}

interface PublishedVersion {
  id: string;
  number: number;
  workflowName: string;
  description: string;
}

/**
 * Published workflows as tools (SPEC-V3 §3 `{"type": "workflow"}`), run as an **invocation of the
 * calling run**: the version's graph executes in the caller's process, inside the call, with the
 * caller's providers and the process's node slots (the calling agent holds none meanwhile), and its
 * own limits; each of its priced model calls must also fit the caller's `limits.maxCostUsd` (what the
 * caller has left), and its tokens and cost count on the call's node run and the calling run. The
 * call's node run in the calling run records the arguments and the result; the called workflow's own events are not stored (it is not a run in the history). A call the caller's worker did
 * not finish before dying runs again when the run resumes; a finished one is replayed, never repeated.
 * Its parameters are the version's input nodes; its result is the version's result (output node).
 */
export class InlineWorkflowTools implements WorkflowTools {
  constructor(
    private readonly deps: WorkflowToolDeps,
    private readonly depth = 0,
  ) {}

  async describe(ref: WorkflowToolRef): Promise<WorkflowToolInfo> {
    const version = await this.#version(ref);
    const { workflow } = await this.deps.versionContent(version.id);
    return {
      name: toolNameOf(version.workflowName),
      description: (version.description || `Runs the workflow "${version.workflowName}" (version ${version.number}) and returns its result.`).slice(0, DESCRIPTION_LENGTH),
      parameters: workflowToolParameters(workflow, this.deps.registry),
      version: version.number,
    };
  }

  async call(call: WorkflowToolCall, signal: AbortSignal): Promise<WorkflowToolResult> {
    if (this.depth >= MAX_WORKFLOW_TOOL_DEPTH) {
      throw new WeftError("WORKFLOW_TOOL_TOO_DEEP", `workflow tools may call workflow tools at most ${MAX_WORKFLOW_TOOL_DEPTH} deep`);
    }
    const version = await this.#version({ workflowId: call.workflowId, version: call.version });
    const { workflow } = await this.deps.versionContent(version.id);
    const inputs = Object.fromEntries(Object.entries(call.arguments).map(([id, value]) => [id, typeof value === "string" ? value : JSON.stringify(value)]));
    const prepared = prepareRun(workflow, { inputs }, { ...this.deps.policy, registry: this.deps.registry });
    if (!prepared.ok) {
      const first = prepared.violations[0]!;
      throw new WeftError("TOOL_ARGUMENTS_INVALID", `workflow "${version.workflowName}" cannot run with these arguments: ${first.message}`);
    }
    const runId = `${call.caller.runId}/${call.caller.invocation}`;
    let failure: EventError | null = null;
    const outcome = await runWorkflow({
      runId,
      prepared: prepared.run,
      registry: this.deps.registry,
      providers: this.deps.llm,
      retriever: this.deps.retriever,
      tools: { ...this.deps.tools, workflows: new InlineWorkflowTools(this.deps, this.depth + 1), workflowVersion: { workflowId: call.workflowId, version: version.number } },
      onEvent: (event) => {
        if (event.type === "NODE_FAILED" && failure === null) failure = event.error;
        this.deps.observe?.(event);
      },
      signal,
      options: { limiter: this.deps.limiter },
      // Its priced calls count on the calling node run and run, within both runs' limits.maxCostUsd.
      callerCost: call.cost,
    });
    if (outcome.status === "COMPLETED") return { output: outcome.result ?? "", runId, usage: outcome.usage };
    if (outcome.status === "WAITING") throw new WeftError("TOOL_FAILED", `workflow "${version.workflowName}" waits for a person, which a tool call cannot`);
    const error: EventError = failure ?? outcome.error ?? { code: "TOOL_FAILED", message: `the run ended ${outcome.status}` };
    throw new WeftError(error.code, `workflow "${version.workflowName}" failed: ${error.message}`);
  }

  /** The version a reference names: its number, else the latest published one. */
  async #version(ref: WorkflowToolRef): Promise<PublishedVersion> {
    const row = await this.deps.db.workflowVersion.findFirst({
      where: { workflowId: ref.workflowId, ...(ref.version === null ? {} : { number: ref.version }) },
      orderBy: { number: "desc" },
      select: { id: true, number: true, workflow: { select: { name: true, description: true } } },
    });
    if (!row) {
      const which = ref.version === null ? "no published version" : `no published version ${ref.version}`;
      throw new WeftError("WORKFLOW_NOT_FOUND", `workflow "${ref.workflowId}" has ${which}`);
    }
    return { id: row.id, number: row.number, workflowName: row.workflow.name, description: row.workflow.description };
  }
}

/**
 * A workflow's parameters as a JSON Schema object: one string per input node (the nodes no edge may
 * enter; the registry says which types those are), required unless the node has content of its own.
 * Agents' workflow tools and the MCP server's tools (SPEC-V3 §3) both describe a workflow with it.
 */
export function workflowToolParameters(workflow: Workflow, registry: NodeTypeRegistry): WorkflowToolParameters {
  const inputs = workflow.nodes.filter((node) => registry.get(node.type)?.inDegree.max === 0);
  const properties = Object.fromEntries(inputs.map((node) => [node.id, { type: "string" as const, description: `The content of input "${node.id}".` }]));
  const required = inputs.filter((node) => !node.content).map((node) => node.id);
  return { type: "object", properties, required, additionalProperties: false };
}

/** A type, not an interface: it must fit where a JSON Schema is any plain record. */
export type WorkflowToolParameters = {
  type: "object";
  properties: Record<string, { type: "string"; description: string }>;
  required: string[];
  additionalProperties: false;
};

/** A name model APIs take (1–64 of letters, digits, `_` and `-`), from the workflow's name. */
export function toolNameOf(name: string): string {
  const fitted = name.trim().replace(UNFIT_NAME_CHARACTER, "_").replace(/^_+|_+$/g, "").slice(0, 64);
  return fitted === "" ? "workflow" : fitted;
}
