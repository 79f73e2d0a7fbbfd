import type { Violation } from "../model/violation.js";
import type { StateChannel, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { stateReferences } from "../template/node-template.js";
import { reaches, type GraphAnalysis } from "./graph-analysis.js";
import { describeNode, quoteList } from "./rule-messages.js";

/** STATE_UNKNOWN_CHANNEL: a node writes, or a template reads `{state.x}` from, an undeclared channel. */
export function checkChannels(nodes: Iterable<WorkflowNode>, registry: NodeTypeRegistry, state: Readonly<Record<string, StateChannel>>): Violation[] {
  const violations: Violation[] = [];
  const declared = Object.keys(state);
  const known = declared.length === 0 ? "the workflow declares no state channels" : `declared: ${quoteList(declared)}`;
  for (const node of nodes) {
    const writes = node.config?.writes;
    if (typeof writes === "string" && !Object.hasOwn(state, writes)) {
      const message = `${describeNode(registry, node)} writes state channel "${writes}", which is not declared (${known})`;
      violations.push({ code: "STATE_UNKNOWN_CHANNEL", message, nodeIds: [node.id], edgeIds: [], field: "writes" });
    }
    checkReads(node, "prompt", node.prompt, registry, state, known, violations);
    checkReads(node, "template", node.config?.template, registry, state, known, violations);
  }
  return violations;
}

function checkReads(
  node: WorkflowNode,
  field: "prompt" | "template",
  text: unknown,
  registry: NodeTypeRegistry,
  state: Readonly<Record<string, StateChannel>>,
  known: string,
  out: Violation[],
): void {
  if (typeof text !== "string") return;
  const unknown = stateReferences(text).filter((channel) => !Object.hasOwn(state, channel));
  if (unknown.length === 0) return;
  const message = `the ${field} of ${describeNode(registry, node)} reads ${unknown.map((channel) => `{state.${channel}}`).join(", ")}, which ${unknown.length === 1 ? "is" : "are"} not declared (${known})`;
  out.push({ code: "STATE_UNKNOWN_CHANNEL", message, nodeIds: [node.id], edgeIds: [], field });
}

/** A node of one graph that writes a channel, itself or through its body; `parallel`: it may write twice at once. */
export interface ChannelWriter {
  node: number;
  parallel: boolean;
}

/**
 * STATE_WRITE_CONFLICT: two writers of one `replace` channel that can run at the same time: neither
 * reaches the other by data edges, and no single-choice router sends them down different ports (the
 * dominator tree of the port-split graph says so). A map body writing a `replace` channel with more than
 * one item at a time conflicts with itself. Pairs per channel: writers are few.
 */
export function checkWriteConflicts(
  writers: ReadonlyMap<string, ChannelWriter[]>,
  state: Readonly<Record<string, StateChannel>>,
  analysis: GraphAnalysis,
  nodes: readonly WorkflowNode[],
  registry: NodeTypeRegistry,
): Violation[] {
  const violations: Violation[] = [];
  for (const [channel, list] of writers) {
    if (state[channel]?.reducer !== "replace") continue;
    for (const writer of list.filter((entry) => entry.parallel)) {
      const message = `${describeNode(registry, nodes[writer.node]!)} replaces state channel "${channel}" from several map items at once; use an append or merge reducer`;
      violations.push({ code: "STATE_WRITE_CONFLICT", message, nodeIds: [analysis.ids[writer.node]!], edgeIds: [] });
    }
    for (let i = 0; i < list.length; i += 1) {
      for (let j = i + 1; j < list.length; j += 1) {
        const [a, b] = [list[i]!.node, list[j]!.node];
        if (a === b || reaches(analysis, a, b) || reaches(analysis, b, a) || exclusive(analysis, a, b, nodes, registry)) continue;
        const message = `${describeNode(registry, nodes[a]!)} and ${describeNode(registry, nodes[b]!)} can run at the same time and both replace state channel "${channel}"; order them, route them apart, or use another reducer`;
        violations.push({ code: "STATE_WRITE_CONFLICT", message, nodeIds: [analysis.ids[a]!, analysis.ids[b]!], edgeIds: [] });
      }
    }
  }
  return violations;
}

function exclusive(analysis: GraphAnalysis, a: number, b: number, nodes: readonly WorkflowNode[], registry: NodeTypeRegistry): boolean {
  const { dominators, portOf } = analysis;
  if (!dominators.reaches(a) || !dominators.reaches(b)) return false;
  const common = dominators.common(a, b);
  if (common >= nodes.length) return false;
  const router = registry.get(nodes[common]!.type)?.router;
  if (!router || !router.exclusive(nodes[common]!)) return false;
  const towardA = portOf.get(dominators.childToward(common, a));
  const towardB = portOf.get(dominators.childToward(common, b));
  return towardA !== undefined && towardB !== undefined && towardA.port !== towardB.port;
}
