import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { schemaPatterns } from "../../schema/json-schema.check.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";
import { humanActions, humanConfig } from "./human.config.js";
import { executeHumanNode } from "./human.executor.js";
import { humanConfigRules } from "./human.rules.js";

export const HUMAN_NODE_TYPE: NodeTypeDefinition = {
  type: "human",
  label: "human",
  component: "RouterNode",
  description: "Waits for a person: opens a task with a title, instructions and an optional form, and goes on through the port of the action they choose.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: humanConfig,
  router: {
    portsField: "actions",
    ports: (node) => humanActions(node).map((action) => action.id),
    requiredPorts: (node) => humanActions(node).map((action) => action.id),
    exclusive: () => true,
  },
  patterns: (node) => schemaPatterns(node.config?.["form"], "form"),
  configRules: humanConfigRules,
  execute: executeHumanNode,
};
