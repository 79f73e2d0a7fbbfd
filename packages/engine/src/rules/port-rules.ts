import type { Violation } from "../model/violation.js";
import { DEFAULT_PORT, type WorkflowEdge, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { GraphIndex } from "./graph-index.js";
import { describeNode, quoteList } from "./rule-messages.js";

/**
 * PORT_UNKNOWN: an edge leaves a port its source does not have. BRANCH_UNCONNECTED: a router's case
 * or label port has no edge (`default` may stay unconnected). Loop edges count as edges. O(V+E).
 */
export function checkPorts(index: GraphIndex, edges: readonly WorkflowEdge[], registry: NodeTypeRegistry): Violation[] {
  const violations: Violation[] = [];
  const used = new Map<string, Set<string>>();
  for (const edge of edges) {
    const source = index.nodes.get(edge.source);
    const spec = source ? registry.get(source.type) : undefined;
    if (!source || !spec) continue;
    const port = edge.sourcePort ?? DEFAULT_PORT;
    if (!spec.router) {
      if (port !== DEFAULT_PORT) violations.push(unknownPort(registry, source, edge, port, [DEFAULT_PORT]));
      continue;
    }
    const ports = spec.router.ports(source);
    if (!ports.includes(port)) violations.push(unknownPort(registry, source, edge, port, ports));
    const seen = used.get(source.id);
    if (seen) seen.add(port);
    else used.set(source.id, new Set([port]));
  }
  for (const node of index.nodes.values()) {
    const router = registry.get(node.type)?.router;
    if (!router) continue;
    const missing = router.requiredPorts(node).filter((port) => !used.get(node.id)?.has(port));
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
