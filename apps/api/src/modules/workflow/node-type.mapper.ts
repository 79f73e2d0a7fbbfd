import type { NodeTypeDescription } from "@weft/engine";
import type { NodeTypeFieldObject, NodeTypeObject } from "./node-type.type.js";

type Schema = Record<string, unknown>;

/** The engine's description of a type (describeNodeType) as GraphQL, its config fields lifted into typed entries. */
export function toNodeTypeObject(description: NodeTypeDescription): NodeTypeObject {
  return {
    type: description.type,
    label: description.label,
    component: description.component,
    description: description.description,
    profile: description.profile,
    accepts: description.accepts,
    feeds: description.feeds,
    inDegree: description.inDegree,
    outDegree: description.outDegree,
    count: description.count,
    usesModel: description.usesModel,
    attributes: description.attributes,
    ports: description.ports,
    portsField: description.portsField,
    router: description.router,
    composite: description.composite,
    fields: configFields(description.configSchema),
    configSchema: description.configSchema,
    defaultConfig: description.defaultConfig,
  };
}

export function configFields(configSchema: Schema): NodeTypeFieldObject[] {
  const properties = isSchema(configSchema["properties"]) ? configSchema["properties"] : {};
  const required = Array.isArray(configSchema["required"]) ? configSchema["required"] : [];
  return Object.entries(properties).map(([name, value]) => {
    const schema = isSchema(value) ? value : {};
    const enumValues = Array.isArray(schema["enum"]) ? schema["enum"].map(String) : null;
    return {
      name,
      kind: fieldKind(schema),
      description: typeof schema["description"] === "string" ? schema["description"] : "",
      required: required.includes(name),
      default: "default" in schema ? schema["default"] : null,
      enumValues,
      minimum: numberOf(schema["minimum"]),
      maximum: numberOf(schema["maximum"]),
      maxLength: numberOf(schema["maxLength"]) ?? numberOf(schema["maxItems"]),
      schema,
    };
  });
}

/** The x-weft-kind when the engine gives one, else the JSON type (`any` when the schema allows anything). */
function fieldKind(schema: Schema): string {
  const kind = schema["x-weft-kind"];
  if (typeof kind === "string") return kind;
  const type = schema["type"];
  return typeof type === "string" ? type : "any";
}

function numberOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
