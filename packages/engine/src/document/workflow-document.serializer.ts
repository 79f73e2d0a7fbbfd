import type { JsonValue } from "../model/json-value.js";
import { SEED_NODE_TYPES, type LoopDeclaration, type SearchIntensity, type StateChannel, type Workflow, type WorkflowGraph, type WorkflowLimits, type WorkflowNode } from "../model/workflow.js";
import { PIPELINE_FORMAT } from "./pipeline-document.schema.js";
import { WORKFLOW_FORMAT, type DocumentNode, type WorkflowDocument } from "./workflow-document.schema.js";

const SEED_TYPES = new Set(SEED_NODE_TYPES);

/** A `weft.workflow/v2` document as the serializer writes it: node configs flat on the nodes. */
export interface PipelineDocument {
  format: typeof PIPELINE_FORMAT;
  name: string;
  prompts: Record<string, string>;
  outputFormat: string;
  knowledgeBase?: string;
  intensity?: SearchIntensity;
  state?: Record<string, StateChannel>;
  limits?: WorkflowLimits;
  loops?: LoopDeclaration[];
  nodes: PipelineDocumentNode[];
  edges: PipelineDocumentEdge[];
}

export type PipelineDocumentNode = { id: string; type: string } & Record<string, JsonValue>;
export interface PipelineDocumentEdge {
  id: string;
  source: string;
  sourcePort?: string;
  target: string;
  loop?: string;
}

/**
 * Workflow → document, for export: `weft.workflow/v1` whenever the workflow uses only v1 features
 * (seed types, no config, no ports or loop edges, no loops, state or limits), `weft.workflow/v2`
 * otherwise (SPEC-V2 §1). Absent and null optional fields are left out.
 */
export function serializeWorkflow(workflow: Workflow): WorkflowDocument | PipelineDocument {
  return usesOnlySeedFeatures(workflow) ? serializeSeedWorkflow(workflow) : serializePipelineWorkflow(workflow);
}

/** The document as JSON text, two-space indented with a final newline, ready to write to a file. */
export function stringifyWorkflow(workflow: Workflow): string {
  return `${JSON.stringify(serializeWorkflow(workflow), null, 2)}\n`;
}

/** Whether a `weft.workflow/v1` document can hold this workflow without losing anything. */
export function usesOnlySeedFeatures(workflow: Workflow): boolean {
  if (workflow.loops !== undefined || workflow.state !== undefined || workflow.limits !== undefined) return false;
  if (!workflow.nodes.every((node) => SEED_TYPES.has(node.type) && node.config === undefined)) return false;
  return workflow.edges.every((edge) => edge.sourcePort === undefined && edge.loop === undefined);
}

function serializeSeedWorkflow(workflow: Workflow): WorkflowDocument {
  return {
    format: WORKFLOW_FORMAT,
    name: workflow.name,
    prompts: { ...workflow.prompts },
    outputFormat: workflow.outputFormat,
    ...(workflow.knowledgeBase != null ? { knowledgeBase: workflow.knowledgeBase } : {}),
    ...(workflow.intensity != null ? { intensity: workflow.intensity } : {}),
    nodes: workflow.nodes.map((node) => baseFields(node) as unknown as DocumentNode),
    edges: workflow.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
  };
}

function serializePipelineWorkflow(workflow: Workflow): PipelineDocument {
  const settings: Omit<PipelineDocument, "nodes" | "edges"> = {
    format: PIPELINE_FORMAT,
    name: workflow.name,
    prompts: { ...workflow.prompts },
    outputFormat: workflow.outputFormat,
  };
  if (workflow.knowledgeBase != null) settings.knowledgeBase = workflow.knowledgeBase;
  if (workflow.intensity != null) settings.intensity = workflow.intensity;
  if (workflow.state !== undefined) settings.state = JSON.parse(JSON.stringify(workflow.state)) as Record<string, StateChannel>;
  if (workflow.limits !== undefined) settings.limits = { ...workflow.limits };
  return { ...settings, ...graphDocument(workflow) };
}

function graphDocument(graph: WorkflowGraph): Pick<PipelineDocument, "loops" | "nodes" | "edges"> {
  const loops = graph.loops?.map((loop) => ({ id: loop.id, ...(loop.max === undefined ? {} : { max: loop.max }), exit: loop.exit }));
  return {
    ...(loops === undefined ? {} : { loops }),
    nodes: graph.nodes.map(pipelineNode),
    edges: graph.edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    ...(edge.sourcePort !== undefined ? { sourcePort: edge.sourcePort } : {}),
    target: edge.target,
    ...(edge.loop !== undefined ? { loop: edge.loop } : {}),
    })),
  };
}

/** A node as a v2 document writes it: its config flattened onto it; a body is itself a graph document. */
export function pipelineNode(node: WorkflowNode): PipelineDocumentNode {
  const out = baseFields(node);
  for (const [key, value] of Object.entries(node.config ?? {})) {
    out[key] = key === "body" && isGraph(value) ? (graphDocument(value as unknown as WorkflowGraph) as unknown as JsonValue) : value;
  }
  return out;
}

function baseFields(node: WorkflowNode): PipelineDocumentNode {
  const out: PipelineDocumentNode = { id: node.id, type: node.type };
  if (node.content != null) out.content = node.content;
  if (node.provider != null) out.provider = node.provider;
  if (node.model != null) out.model = node.model;
  if (node.params != null) out.params = node.params as JsonValue;
  if (node.prompt != null) out.prompt = node.prompt;
  if (node.position != null) out.position = { x: node.position.x, y: node.position.y };
  return out;
}

function isGraph(value: JsonValue): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Array.isArray(value.nodes) && Array.isArray(value.edges);
}
