import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { gradeConfig, GRADE_PORTS } from "./grade.config.js";
import { executeGradeNode } from "./grade.executor.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";
import { fixedPorts } from "../common/router-ports.js";

export const GRADE_NODE_TYPE: NodeTypeDefinition = {
  type: "grade",
  label: "grade",
  component: "RouterNode",
  description: "A model grades its input: pass, retry (its reason becomes the loop's {feedback}) or fail; the input passes through.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: gradeConfig,
  router: fixedPorts(GRADE_PORTS),
  execute: executeGradeNode,
};
