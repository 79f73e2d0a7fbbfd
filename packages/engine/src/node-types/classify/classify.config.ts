import { z } from "zod";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import { nodeConfig, portName } from "../../registry/node-config.schema.js";

export const classifyConfig = nodeConfig({
  labels: z
    .array(portName)
    .min(1, "must hold at least one label")
    .max(LIMITS.maxPorts, `must hold at most ${LIMITS.maxPorts} labels`)
    .refine((labels) => new Set(labels).size === labels.length, "labels must differ")
    .meta({ description: "The labels the model chooses from; each is an output port." }),
});
