import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { templateConfig } from "./template.config.js";
import { executeTemplateNode } from "./template.executor.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const TEMPLATE_NODE_TYPE: NodeTypeDefinition = {
  type: "template",
  label: "template",
  component: "TemplateNode",
  description: "Deterministic text or JSON from a template over its inputs and the state, no model.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: templateConfig,
  defaultConfig: { template: "{input}" },
  execute: executeTemplateNode,
};
