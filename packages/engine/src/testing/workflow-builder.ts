import type { Workflow, WorkflowNode } from "../model/workflow.js";

/**
 * Keeps graph fixtures short: `workflow().input("in", "hi").model("g", "generation").output("out")
 * .edges("in>g", "g>out").build()`. Model nodes default to the fake provider's model "m". Edge ids are
 * e1, e2, … in the order given, which is the edge creation order.
 */
export class WorkflowBuilder {
  readonly #nodes: WorkflowNode[] = [];
  readonly #edges: Workflow["edges"] = [];
  #prompts: Record<string, string> = {
    generation: "{input_data}",
    ensemble: "{input_data}",
    validation: "{input_data}",
  };
  #outputFormat = "";
  #knowledgeBase: string | null = null;

  input(id: string, content = id): this {
    this.#nodes.push({ id, type: "input", content });
    return this;
  }

  output(id = "out"): this {
    this.#nodes.push({ id, type: "output", content: "" });
    return this;
  }

  model(id: string, type: string, attributes: Partial<WorkflowNode> = {}): this {
    this.#nodes.push({ id, type, provider: "fake", model: "m", ...attributes });
    return this;
  }

  /** `"a>b"` adds an edge from a to b. */
  edges(...pairs: string[]): this {
    for (const pair of pairs) {
      const [source, target] = pair.split(">");
      this.#edges.push({ id: `e${this.#edges.length + 1}`, source: source!, target: target! });
    }
    return this;
  }

  prompts(prompts: Record<string, string>): this {
    this.#prompts = { ...this.#prompts, ...prompts };
    return this;
  }

  outputFormat(format: string): this {
    this.#outputFormat = format;
    return this;
  }

  knowledgeBase(name: string | null): this {
    this.#knowledgeBase = name;
    return this;
  }

  build(): Workflow {
    return {
      name: "test",
      nodes: [...this.#nodes],
      edges: [...this.#edges],
      prompts: { ...this.#prompts },
      outputFormat: this.#outputFormat,
      knowledgeBase: this.#knowledgeBase,
      intensity: null,
    };
  }
}

export function workflow(): WorkflowBuilder {
  return new WorkflowBuilder();
}
