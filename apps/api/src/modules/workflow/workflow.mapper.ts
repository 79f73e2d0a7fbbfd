import { configDocument, DEFAULT_PORT, isJsonObject, type JsonValue, type PromptSet, type Workflow, type WorkflowEdge, type WorkflowGraph, type WorkflowNode } from "@weft/engine";
import {
  Prisma,
  type Workflow as WorkflowRow,
  type WorkflowEdge as EdgeRow,
  type WorkflowNode as NodeRow,
} from "../../generated/prisma/client.js";
import { settingsFromRow, toSettingsObjects } from "./workflow-settings.mapper.js";
import type { PromptSetObject, WorkflowEdgeObject, WorkflowNodeObject, WorkflowObject } from "./workflow.type.js";

/** Prisma rows ↔ engine graph ↔ GraphQL objects. Nothing here touches the database. */

export type NodeRowData = Pick<
  NodeRow,
  "key" | "type" | "content" | "provider" | "model" | "params" | "prompt" | "config" | "positionX" | "positionY"
>;
export type EdgeRowData = Pick<EdgeRow, "key" | "source" | "target" | "sourcePort" | "loop" | "position">;

export const MODEL_PROMPT_TYPES = ["generation", "ensemble", "validation"] as const;

export function promptsFromJson(json: Prisma.JsonValue): PromptSet {
  const prompts: PromptSet = {};
  if (isJsonObject(json)) {
    for (const [type, text] of Object.entries(json)) {
      if (typeof text === "string") prompts[type] = text;
    }
  }
  return prompts;
}

function paramsFromJson(json: Prisma.JsonValue | null): Record<string, unknown> | undefined {
  return isJsonObject(json) ? json : undefined;
}

/** A node's type fields; null, `{}` and anything that is not an object mean none. */
export function configFromJson(json: Prisma.JsonValue | null): Record<string, JsonValue> | undefined {
  const config = paramsFromJson(json);
  return config && Object.keys(config).length > 0 ? (config as Record<string, JsonValue>) : undefined;
}

function configField(json: Prisma.JsonValue | null): { config?: Record<string, JsonValue> } {
  const config = configFromJson(json);
  return config ? { config } : {};
}

/** The column value for a node's config: SQL NULL when it has none (every seed-000 node). */
export function configColumn(config: Record<string, JsonValue> | undefined): Prisma.InputJsonObject | typeof Prisma.DbNull {
  return config && Object.keys(config).length > 0 ? (config as Prisma.InputJsonObject) : Prisma.DbNull;
}

/** `out` is every ordinary node's port and what an absent port means, so it is stored as NULL. */
export function sourcePortColumn(sourcePort: string | null | undefined): string | null {
  return sourcePort === undefined || sourcePort === null || sourcePort === DEFAULT_PORT ? null : sourcePort;
}

export function nodeFromRow(row: NodeRowData): WorkflowNode {
  const node: WorkflowNode = { id: row.key, type: row.type, position: { x: row.positionX, y: row.positionY } };
  if (row.content !== null) node.content = row.content;
  if (row.provider !== null) node.provider = row.provider;
  if (row.model !== null) node.model = row.model;
  const params = paramsFromJson(row.params);
  if (params) node.params = params;
  if (row.prompt !== null) node.prompt = row.prompt;
  const config = configFromJson(row.config);
  if (config) node.config = config;
  return node;
}

/** Edges in creation order, which is the order the executor joins a node's inputs in. */
export function sortEdgeRows<T extends EdgeRowData>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => a.position - b.position);
}

export function edgeFromRow(row: Pick<EdgeRowData, "key" | "source" | "target" | "sourcePort" | "loop">): WorkflowEdge {
  const edge: WorkflowEdge = { id: row.key, source: row.source, target: row.target };
  if (row.sourcePort !== null) edge.sourcePort = row.sourcePort;
  if (row.loop !== null) edge.loop = row.loop;
  return edge;
}

export function graphFromRows(nodes: readonly NodeRowData[], edges: readonly EdgeRowData[]): WorkflowGraph {
  return { nodes: nodes.map(nodeFromRow), edges: sortEdgeRows(edges).map(edgeFromRow) };
}

export function workflowFromRows(
  row: Pick<WorkflowRow, "name" | "prompts" | "outputFormat" | "knowledgeBase" | "intensity" | "loops" | "state" | "limits">,
  nodes: readonly NodeRowData[],
  edges: readonly EdgeRowData[],
): Workflow {
  return {
    name: row.name,
    prompts: promptsFromJson(row.prompts),
    outputFormat: row.outputFormat,
    knowledgeBase: row.knowledgeBase,
    intensity: row.intensity,
    ...settingsFromRow(row),
    ...graphFromRows(nodes, edges),
  };
}

/** Prisma `createMany` rows for an engine node; absent attributes are stored as NULL. */
export function nodeCreateData(workflowId: string, node: WorkflowNode): Prisma.WorkflowNodeCreateManyInput {
  return {
    workflowId,
    key: node.id,
    type: node.type,
    content: node.content ?? null,
    provider: node.provider ?? null,
    model: node.model ?? null,
    params: (node.params as Prisma.InputJsonObject | undefined) ?? undefined,
    prompt: node.prompt ?? null,
    config: configColumn(node.config),
    positionX: node.position?.x ?? 0,
    positionY: node.position?.y ?? 0,
  };
}

/** Edges of a graph stored with positions 1..n in the graph's order. */
export function edgeCreateData(workflowId: string, edges: readonly WorkflowEdge[]): Prisma.WorkflowEdgeCreateManyInput[] {
  return edges.map((edge, index) => ({
    workflowId,
    key: edge.id,
    source: edge.source,
    target: edge.target,
    sourcePort: sourcePortColumn(edge.sourcePort),
    loop: edge.loop ?? null,
    position: index + 1,
  }));
}

export function toPromptSetObject(prompts: PromptSet): PromptSetObject {
  return {
    generation: prompts["generation"] ?? "",
    ensemble: prompts["ensemble"] ?? "",
    validation: prompts["validation"] ?? "",
  };
}

export function toNodeObject(row: NodeRowData): WorkflowNodeObject {
  return {
    id: row.key,
    type: row.type,
    content: row.content,
    provider: row.provider,
    model: row.model,
    params: paramsFromJson(row.params) ?? null,
    prompt: row.prompt,
    config: configDocument({ id: row.key, type: row.type, ...configField(row.config) }),
    position: { x: row.positionX, y: row.positionY },
  };
}

export function toEdgeObject(row: EdgeRowData): WorkflowEdgeObject {
  return { id: row.key, source: row.source, target: row.target, sourcePort: row.sourcePort ?? DEFAULT_PORT, loop: row.loop, order: row.position };
}

/** An engine workflow's nodes as GraphQL objects (a published version, a run's snapshot). */
export function graphNodeObjects(workflow: Pick<Workflow, "nodes">): WorkflowNodeObject[] {
  return workflow.nodes.map((node) => ({
    id: node.id,
    type: node.type,
    content: node.content ?? null,
    provider: node.provider ?? null,
    model: node.model ?? null,
    params: node.params ?? null,
    prompt: node.prompt ?? null,
    config: configDocument(node),
    position: { x: node.position?.x ?? 0, y: node.position?.y ?? 0 },
  }));
}

/** An engine workflow's edges in its order, numbered 1..n (the order a node's inputs are joined in). */
export function graphEdgeObjects(workflow: Pick<Workflow, "edges">): WorkflowEdgeObject[] {
  return workflow.edges.map((edge, index) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourcePort: edge.sourcePort ?? DEFAULT_PORT,
    loop: edge.loop ?? null,
    order: index + 1,
  }));
}

export function toWorkflowObject(
  row: WorkflowRow,
  graph?: { nodes: readonly NodeRowData[]; edges: readonly EdgeRowData[] },
): WorkflowObject {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    prompts: toPromptSetObject(promptsFromJson(row.prompts)),
    outputFormat: row.outputFormat,
    knowledgeBase: row.knowledgeBase,
    intensity: row.intensity,
    ...toSettingsObjects(settingsFromRow(row)),
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    graph: graph && { nodes: graph.nodes.map(toNodeObject), edges: sortEdgeRows(graph.edges).map(toEdgeObject) },
    mcpSettings: { enabled: row.mcpEnabled, toolName: row.mcpToolName, description: row.mcpDescription },
  };
}
