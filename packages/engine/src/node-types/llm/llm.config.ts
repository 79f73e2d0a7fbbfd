import { z } from "zod";
import { kind, nodeConfig, retrievalConfigFields } from "../../registry/node-config.schema.js";
import { jsonSchemaField } from "../common/json-schema-field.js";

export const llmConfig = nodeConfig({
  schema: jsonSchemaField
    .optional()
    .meta(kind("jsonSchema", "JSON Schema of the output: the reply is parsed as JSON, validated, and repaired once with the error.")),
  ...retrievalConfigFields,
  cache: z
    .strictObject({
      threshold: z.number().min(0).max(1).meta({ description: "Similarity at or above which a cached answer is reused." }),
      ttlSeconds: z.number().int().min(1).optional().meta({ description: "How long an answer stays cached." }),
    })
    .optional()
    .meta({ description: "Per-node semantic cache (needs a cache service; see SPEC-V2 §6)." }),
});
