/**
 * Lays out the shipped templates (examples/*.json) with the editor's own layered layout and writes the
 * positions into the files, bodies included, so a workflow made from a template opens tidy. Run after
 * changing a template: `node apps/web/scripts/lay-out-templates.ts` (Node 24 runs TypeScript as is).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { builtInRegistry, type JsonValue, type WorkflowNode } from "@weft/engine";
import { autoLayout, estimatedCardSize } from "../src/features/graph-view/auto-layout.ts";

type DocumentNode = Record<string, JsonValue> & { id: string; type: string; body?: DocumentGraph };
interface DocumentGraph {
  nodes: DocumentNode[];
  edges: { source: string; target: string; sourcePort?: string; loop?: string }[];
}

const ATTRIBUTES = new Set(["id", "type", "content", "provider", "model", "params", "prompt", "position"]);
const examples = path.resolve(import.meta.dirname, "../../../examples");

/** A document node as the engine's model has it (its type's fields gathered into config), for its ports. */
function modelNode(node: DocumentNode): WorkflowNode {
  const config = Object.fromEntries(Object.entries(node).filter(([key]) => !ATTRIBUTES.has(key)));
  return { id: node.id, type: node.type, config };
}

async function layOut(graph: DocumentGraph): Promise<void> {
  for (const node of graph.nodes) if (node.body) await layOut(node.body);
  const nodes = graph.nodes.map((node) => {
    const sink = builtInRegistry.get(node.type)?.outDegree.max === 0;
    const ports = sink ? [] : builtInRegistry.portsOf(modelNode(node));
    return { id: node.id, ports, ...estimatedCardSize(ports) };
  });
  const positions = await autoLayout(nodes, graph.edges);
  for (const node of graph.nodes) node.position = positions.get(node.id) ?? { x: 0, y: 0 };
}

const LINE = 110;

/** JSON as the templates are written by hand: what fits on a line stays on it, the rest is indented. */
function stringify(value: unknown, indent = ""): string {
  const flat = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, " ").replace(/\[ /g, "[").replace(/ \]/g, "]").replace(/\{ /g, "{").replace(/ \}/g, "}") ?? "null";
  if (value === null || typeof value !== "object" || indent.length + flat.length <= LINE) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => inner + stringify(item, inner)).join(",\n")}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${stringify(item, inner)}`);
  return `{\n${entries.join(",\n")}\n${indent}}`;
}

for (const file of readdirSync(examples).filter((name) => name.endsWith(".json"))) {
  const full = path.join(examples, file);
  const document = JSON.parse(readFileSync(full, "utf8")) as DocumentGraph;
  // A template laid out by hand keeps its positions.
  if (document.nodes.every((node) => node.position)) continue;
  await layOut(document);
  writeFileSync(full, `${stringify(document)}\n`);
  console.log(`laid out ${file}`);
}
