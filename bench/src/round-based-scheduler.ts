import { builtInRegistry, DEFAULT_RUN_LIMITS, jsonText, nodeExecutionSettings, UNMETERED_COST, type LlmProviders, type NodeExecutionContext, type Workflow } from "@weft/engine";
import { preparedRun } from "./prepared-run.js";

const SINGLE_PORT: ReadonlySet<string> = new Set(["out"]);

/**
 * The seed's round-based schedule (find the ready nodes, run them in parallel, wait for ALL of them,
 * enqueue their post-nodes), running the same node executors as Weft. Used only to compare makespans.
 */
export async function runRoundBased(workflow: Workflow, llm: LlmProviders): Promise<Record<string, string>> {
  const { settings } = preparedRun(workflow, { registry: builtInRegistry, parseRepair: false });
  const preNodes = new Map(workflow.nodes.map((node) => [node.id, [] as string[]]));
  const postNodes = new Map(workflow.nodes.map((node) => [node.id, [] as string[]]));
  for (const edge of workflow.edges) {
    preNodes.get(edge.target)!.push(edge.source);
    postNodes.get(edge.source)!.push(edge.target);
  }
  const outputs = new Map<string, string>();
  const signal = new AbortController().signal;
  let waiting = workflow.nodes.filter((node) => preNodes.get(node.id)!.length === 0);
  while (waiting.length > 0) {
    const ready = waiting.filter((node) => preNodes.get(node.id)!.every((pre) => outputs.has(pre)));
    const results = await Promise.all(
      ready.map((node) => {
        const context: NodeExecutionContext = {
          runId: "round-based",
          node,
          inputs: preNodes.get(node.id)!.map((pre) => outputs.get(pre)!),
          values: preNodes.get(node.id)!.map((pre) => outputs.get(pre)!),
          inputsBySource: {},
          suppliedContent: undefined,
          runInputs: {},
          state: {},
          invocation: "",
          invocationIndex: 0,
          loops: {},
          feedback: "",
          iteration: 1,
          connectedPorts: SINGLE_PORT,
          evaluate: () => {
            throw new Error("the seed's schedule has no expressions");
          },
          runBody: () => Promise.reject(new Error("the seed's schedule has no bodies")),
          openTask: () => Promise.reject(new Error("the seed's schedule has no human steps")),
          runInvocations: () => Promise.reject(new Error("the seed's schedule has no agents")),
          recorded: () => [],
          settings: nodeExecutionSettings(settings, node),
          limits: DEFAULT_RUN_LIMITS,
          llm,
          retriever: null,
          tools: {},
          cost: UNMETERED_COST,
          signal,
          emit: () => undefined,
          withRetries: (call) => call(0),
        };
        return builtInRegistry.require(node.type).execute(context);
      }),
    );
    ready.forEach((node, index) => outputs.set(node.id, jsonText(results[index]!.output)));
    const readyIds = new Set(ready.map((node) => node.id));
    const next = waiting.filter((node) => !readyIds.has(node.id));
    for (const node of ready) {
      for (const post of postNodes.get(node.id)!) {
        if (!next.some((candidate) => candidate.id === post)) next.push(workflow.nodes.find((n) => n.id === post)!);
      }
    }
    waiting = next;
  }
  return Object.fromEntries(outputs);
}
