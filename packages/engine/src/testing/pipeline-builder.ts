import { DEFAULT_OUTPUT_FORMAT, DEFAULT_PROMPTS } from "../model/defaults.js";
import type { JsonValue } from "../model/json-value.js";
import type { LoopDeclaration, StateChannel, Workflow, WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";

/**
 * Keeps SPEC-V2 fixtures short:
 *   pipeline().input("q").node("route", "switch", { cases }).llm("a").output("out")
 *     .edges("q>route", "route.simple>a", "a>out").loop("regen", 3, "pass").loopEdge("check.retry>draft", "regen")
 * `source.port>target` names a port; edge ids are the arrows as written (loop edges get `@loop`).
 * Model types default to the offline scripted model, replying what `replies` says.
 */
export class PipelineBuilder {
  readonly #nodes: WorkflowNode[] = [];
  readonly #edges: WorkflowEdge[] = [];
  readonly #loops: LoopDeclaration[] = [];
  #state: Record<string, StateChannel> | undefined;
  #maxInvocations: number | undefined;
  #maxCostUsd: number | undefined;

  input(id: string, content = ""): this {
    return this.add({ id, type: "input", content });
  }

  output(id = "out"): this {
    return this.add({ id, type: "output", content: "" });
  }

  /** Any node type with its config fields (`writes` included). */
  node(id: string, type: string, config: Record<string, JsonValue> = {}, attributes: Partial<WorkflowNode> = {}): this {
    return this.add({ id, type, ...attributes, ...(Object.keys(config).length > 0 ? { config } : {}) });
  }

  /** A model-calling node (llm, classify, grade) on the offline scripted model. */
  model(id: string, type: string, replies: JsonValue[], config: Record<string, JsonValue> = {}, attributes: Partial<WorkflowNode> = {}): this {
    return this.node(id, type, config, { provider: "offline", model: "scripted", params: { replies }, ...attributes });
  }

  edges(...arrows: string[]): this {
    for (const arrow of arrows) this.#edges.push(parseArrow(arrow));
    return this;
  }

  loopEdge(arrow: string, loop: string): this {
    this.#edges.push({ ...parseArrow(arrow), id: `${arrow}@${loop}`, loop });
    return this;
  }

  loop(id: string, max: number | undefined, exit: string | null = null): this {
    this.#loops.push({ id, exit, ...(max === undefined ? {} : { max }) });
    return this;
  }

  state(channels: Record<string, StateChannel>): this {
    this.#state = { ...this.#state, ...channels };
    return this;
  }

  maxInvocations(limit: number): this {
    this.#maxInvocations = limit;
    return this;
  }

  maxCostUsd(limit: number): this {
    this.#maxCostUsd = limit;
    return this;
  }

  /** The nodes, edges and loops alone: a map or subgraph body. */
  graph(): WorkflowGraph {
    return { nodes: [...this.#nodes], edges: [...this.#edges], ...(this.#loops.length > 0 ? { loops: [...this.#loops] } : {}) };
  }

  build(): Workflow {
    return {
      name: "pipeline",
      prompts: { ...DEFAULT_PROMPTS },
      outputFormat: DEFAULT_OUTPUT_FORMAT,
      knowledgeBase: null,
      intensity: null,
      ...this.graph(),
      ...(this.#state ? { state: this.#state } : {}),
      ...(this.#maxInvocations !== undefined || this.#maxCostUsd !== undefined
        ? { limits: { ...(this.#maxInvocations !== undefined ? { maxInvocations: this.#maxInvocations } : {}), ...(this.#maxCostUsd !== undefined ? { maxCostUsd: this.#maxCostUsd } : {}) } }
        : {}),
    };
  }

  private add(node: WorkflowNode): this {
    this.#nodes.push(node);
    return this;
  }
}

export function pipeline(): PipelineBuilder {
  return new PipelineBuilder();
}

/** A body graph as a config value. */
export function body(builder: PipelineBuilder): JsonValue {
  return builder.graph() as unknown as JsonValue;
}

function parseArrow(arrow: string): WorkflowEdge {
  const [from, target] = arrow.split(">") as [string, string];
  const dot = from.indexOf(".");
  const source = dot === -1 ? from : from.slice(0, dot);
  const edge: WorkflowEdge = { id: arrow, source, target };
  if (dot !== -1) edge.sourcePort = from.slice(dot + 1);
  return edge;
}
