import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { configValue, DEFAULT_ROUTE } from "../common/router-ports.js";
import { switchCases, switchConfig } from "./switch.config.js";
import { executeSwitchNode } from "./switch.executor.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const SWITCH_NODE_TYPE: NodeTypeDefinition = {
  type: "switch",
  label: "switch",
  component: "RouterNode",
  description: "Routes its input, unchanged, to the port of the first (or every) case whose CEL condition holds, else to default.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: switchConfig,
  defaultConfig: { cases: [{ port: "case_1", when: 'input != ""' }] },
  router: {
    portsField: "cases",
    ports: (node) => [...switchCases(node).map((entry) => entry.port), DEFAULT_ROUTE],
    requiredPorts: (node) => switchCases(node).map((entry) => entry.port),
    exclusive: (node) => configValue(node, "mode", "first") !== "all",
  },
  expressions: (node) => switchCases(node).map((entry, k) => ({ field: `cases[${k}].when`, source: entry.when, kind: "value" })),
  execute: executeSwitchNode,
};
