/**
 * How a config field is edited, read from its JSON Schema (the API's `NodeTypeField.schema`, with the
 * engine's `x-weft-kind`): the form never knows a node type or a field by name, so a field added to a
 * type on the server gets its editor without a change here.
 */

type Schema = Record<string, unknown>;

export type FieldShape =
  | { kind: "cel"; list: boolean }
  | { kind: "template" }
  | { kind: "channel" }
  | { kind: "knowledgeBase" }
  | { kind: "choice"; values: readonly string[] }
  | { kind: "text"; maxLength: number | null }
  | { kind: "number"; integer: boolean; minimum: number | null; maximum: number | null }
  | { kind: "boolean" }
  | { kind: "list"; item: FieldShape; maxItems: number | null }
  | { kind: "record"; fields: readonly RecordField[] }
  | { kind: "graph" }
  | { kind: "json" };

export interface RecordField {
  name: string;
  required: boolean;
  description: string;
  shape: FieldShape;
}

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);
const numberOf = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** A record is edited field by field only when every field has a simple editor; else as JSON. */
const SIMPLE: ReadonlySet<FieldShape["kind"]> = new Set(["cel", "template", "channel", "knowledgeBase", "choice", "text", "number", "boolean"]);

export function shapeOf(schema: unknown): FieldShape {
  if (!isSchema(schema)) return { kind: "json" };
  switch (schema["x-weft-kind"]) {
    case "cel":
      return { kind: "cel", list: false };
    case "celList":
      return { kind: "cel", list: true };
    case "template":
      return { kind: "template" };
    case "channel":
      return { kind: "channel" };
    case "knowledgeBase":
      return { kind: "knowledgeBase" };
    case "graph":
      return { kind: "graph" };
    case "jsonSchema":
      return { kind: "json" };
  }
  if ("anyOf" in schema || "oneOf" in schema) return { kind: "json" };
  switch (schema["type"]) {
    case "string":
      return Array.isArray(schema["enum"]) ? { kind: "choice", values: schema["enum"].map(String) } : { kind: "text", maxLength: numberOf(schema["maxLength"]) };
    case "integer":
    case "number":
      return { kind: "number", integer: schema["type"] === "integer", minimum: numberOf(schema["minimum"]), maximum: numberOf(schema["maximum"]) };
    case "boolean":
      return { kind: "boolean" };
    case "array": {
      const item = shapeOf(schema["items"]);
      return item.kind === "json" || item.kind === "list" ? { kind: "json" } : { kind: "list", item, maxItems: numberOf(schema["maxItems"]) };
    }
    case "object":
      return recordShape(schema);
    default:
      return { kind: "json" };
  }
}

function recordShape(schema: Schema): FieldShape {
  const properties = isSchema(schema["properties"]) ? schema["properties"] : null;
  if (!properties || schema["additionalProperties"] !== false) return { kind: "json" };
  const required = Array.isArray(schema["required"]) ? schema["required"].map(String) : [];
  const fields = Object.entries(properties).map(([name, property]) => ({
    name,
    required: required.includes(name),
    description: isSchema(property) && typeof property["description"] === "string" ? property["description"] : "",
    shape: shapeOf(property),
  }));
  return fields.every((field) => SIMPLE.has(field.shape.kind)) ? { kind: "record", fields } : { kind: "json" };
}

/** The value a new list entry starts with. */
export function emptyValue(shape: FieldShape): unknown {
  switch (shape.kind) {
    case "record":
      return {};
    case "boolean":
      return false;
    default:
      return "";
  }
}
