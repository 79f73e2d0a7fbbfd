import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { joinConfig } from "./join.config.js";
import { executeJoinNode } from "./join.executor.js";
import { configValue } from "../common/router-ports.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const JOIN_NODE_TYPE: NodeTypeDefinition = {
  type: "join",
  label: "join",
  component: "JoinNode",
  description: "Waits for its inputs (all, or the first) and combines them in edge order.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: joinConfig,
  readiness: (node) => (configValue(node, "mode", "all") === "first" ? "first" : "all"),
  execute: executeJoinNode,
};
