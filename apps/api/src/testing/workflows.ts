import { createNewWorkflow, type Workflow, type WorkflowNode } from "@weft/engine";

/**
 * Small workflow fixtures. `arrows("in->g1->out", "in2->e1")`: a node's type comes from its id's
 * letters (in input, g generation, e ensemble, v validation, out output); model nodes use the offline
 * provider with `model` (default echo) and `params`.
 */
const TYPES: Record<string, string> = { in: "input", g: "generation", e: "ensemble", v: "validation", out: "output" };

export interface ArrowOptions {
  model?: string;
  provider?: string;
  params?: Record<string, unknown>;
  /** Per-node overrides, by id. */
  nodes?: Record<string, Partial<WorkflowNode>>;
  name?: string;
}

export function arrows(specs: string[], options: ArrowOptions = {}): Workflow {
  const nodes = new Map<string, WorkflowNode>();
  const edges: Workflow["edges"] = [];
  const add = (id: string) => {
    if (nodes.has(id)) return;
    const type = TYPES[/^[a-z]+/.exec(id)?.[0] ?? ""] ?? id;
    const node: WorkflowNode =
      type === "input" || type === "output"
        ? { id, type, content: type === "input" ? `content of ${id}` : "" }
        : { id, type, provider: options.provider ?? "offline", model: options.model ?? "echo", ...(options.params ? { params: options.params } : {}) };
    nodes.set(id, { ...node, ...options.nodes?.[id] });
  };
  for (const spec of specs) {
    const ids = spec.split("->").map((part) => part.trim());
    ids.forEach(add);
    for (let k = 0; k + 1 < ids.length; k += 1) edges.push({ id: `e${edges.length + 1}`, source: ids[k]!, target: ids[k + 1]! });
  }
  return { ...createNewWorkflow(options.name ?? "test workflow"), nodes: [...nodes.values()], edges };
}

/** One input fanning out to `width` generation nodes merged by an ensemble: many events, fast. */
export function fanOut(width: number, options: ArrowOptions = {}): Workflow {
  const specs = Array.from({ length: width }, (_, index) => `in->g${index + 1}->e1`);
  return arrows([...specs, "e1->out"], options);
}

/**
 * A v2 document with one human step and its two ways out, as the human-step tests import it; `review`
 * adds to or replaces the human node's settings (form, timeoutSeconds, onTimeout, …).
 *
 *  draft ─► review (human) ─[approve]─► published ─► done (join) ─► result
 *                          └─[reject]──► rejected ──┘
 */
export function approvalDocument(name: string, review: Record<string, unknown> = {}) {
  return {
    format: "weft.workflow/v2",
    name,
    nodes: [
      { id: "draft", type: "input", content: "The sky is blue." },
      { id: "review", type: "human", title: "Check: {input}", ...review },
      { id: "published", type: "template", template: "published: {input}" },
      { id: "rejected", type: "template", template: "rejected" },
      { id: "done", type: "join" },
      { id: "result", type: "output" },
    ],
    edges: [
      { source: "draft", target: "review" },
      { source: "review", sourcePort: "approve", target: "published" },
      { source: "review", sourcePort: "reject", target: "rejected" },
      { source: "published", target: "done" },
      { source: "rejected", target: "done" },
      { source: "done", target: "result" },
    ],
  };
}
