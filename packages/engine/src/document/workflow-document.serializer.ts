import type { Workflow } from "../model/workflow.js";
import { WORKFLOW_FORMAT, type DocumentNode, type WorkflowDocument } from "./workflow-document.schema.js";

/** Workflow → `weft.workflow/v1` document, for export. Absent and null optional fields are left out. */
export function serializeWorkflow(workflow: Workflow): WorkflowDocument {
  const document: WorkflowDocument = {
    format: WORKFLOW_FORMAT,
    name: workflow.name,
    prompts: { ...workflow.prompts },
    outputFormat: workflow.outputFormat,
    ...(workflow.knowledgeBase != null ? { knowledgeBase: workflow.knowledgeBase } : {}),
    ...(workflow.intensity != null ? { intensity: workflow.intensity } : {}),
    nodes: workflow.nodes.map((node) => {
      const out: DocumentNode = { id: node.id, type: node.type };
      if (node.content != null) out.content = node.content;
      if (node.provider != null) out.provider = node.provider;
      if (node.model != null) out.model = node.model;
      if (node.params != null) out.params = node.params;
      if (node.prompt != null) out.prompt = node.prompt;
      if (node.position != null) out.position = { x: node.position.x, y: node.position.y };
      return out;
    }),
    edges: workflow.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
  };
  return document;
}

/** The document as JSON text, two-space indented with a final newline, ready to write to a file. */
export function stringifyWorkflow(workflow: Workflow): string {
  return `${JSON.stringify(serializeWorkflow(workflow), null, 2)}\n`;
}
