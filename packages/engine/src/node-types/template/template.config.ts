import { z } from "zod";
import { kind, nodeConfig, templateText } from "../../registry/node-config.schema.js";

export const templateConfig = nodeConfig({
  template: templateText.meta(kind("template", "Text with placeholders ({input}, {input.<id>}, {state.<channel>}, {item}, {index}, {feedback}, {iteration}).")),
  json: z
    .boolean()
    .optional()
    .meta({ description: "Produce JSON: placeholders are filled with JSON values and the result must parse.", default: false }),
});
