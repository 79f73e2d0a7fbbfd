import type { Violation } from "../model/violation.js";
import { DEFAULT_PORT, type WorkflowEdge, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphAnalysis } from "./graph-analysis.js";
import { describeNode, quoteList } from "./rule-messages.js";

/**
 * PORT_UNKNOWN: an edge leaves a port its source does not have. BRANCH_UNCONNECTED: a router's case
 * or label port has no edge (`default` may stay unconnected). Loop edges count as edges. O(V+E).
 */
export function checkPorts(analysis: GraphAnalysis, registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  const { index, specs } = analysis;
  const { nodeList, edgeList, edgeSource } = index;
  const portsOf: (readonly string[] | undefined)[] = [];
  for (let e = 0; e < edgeList.length; e += 1) {
    const edge = edgeList[e]!;
    const k = edgeSource[e]!;
    const spec = specs[k];
    if (!spec) continue;
    const source = nodeList[k]!;
    const port = edge.sourcePort ?? DEFAULT_PORT;
    if (!spec.router) {
      if (port !== DEFAULT_PORT) violations.push(unknownPort(registry, source, edge, port, [DEFAULT_PORT]));
      continue;
    }
    const ports = (portsOf[k] ??= spec.router.ports(source));
    if (!ports.includes(port)) violations.push(unknownPort(registry, source, edge, port, ports));
  }
  for (let k = 0; k < nodeList.length; k += 1) {
    const router = specs[k]?.router;
    if (!router) continue;
    const node = nodeList[k]!;
    const required = router.requiredPorts(node);
    if (required.length === 0) continue;
    const used = new Set<string>();
    for (let slot = index.allOutStart[k]!; slot < index.allOutStart[k + 1]!; slot += 1) used.add(edgeList[index.allOutEdge[slot]!]!.sourcePort ?? DEFAULT_PORT);
    const missing = required.filter((port) => !used.has(port));
    if (missing.length === 0) continue;
    const message = `${describeNode(registry, node)} has no edge from ${missing.length === 1 ? "port" : "ports"} ${quoteList(missing)}; connect each case or label (default may stay unconnected)`;
    violations.push({ code: "BRANCH_UNCONNECTED", message, nodeIds: [node.id], edgeIds: [] });
  }
  return violations;
}

function unknownPort(registry: NodeTypeRegistry, source: WorkflowNode, edge: WorkflowEdge, port: string, ports: readonly string[]): Violation {
  const message = `edge "${edge.id}" leaves port "${port}" of ${describeNode(registry, source)}, which has ${ports.length === 1 ? "port" : "ports"} ${quoteList(ports)}`;
  return { code: "PORT_UNKNOWN", message, nodeIds: [source.id, edge.target], edgeIds: [edge.id] };
}
