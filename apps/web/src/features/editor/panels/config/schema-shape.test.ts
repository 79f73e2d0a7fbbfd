import { describe, expect, it } from "vitest";
import { shapeOf } from "./schema-shape";

describe("the editor a config field gets, from its schema", () => {
  it("edits a switch's cases as rows of a port and a CEL condition", () => {
    const cases = {
      type: "array",
      maxItems: 64,
      items: {
        type: "object",
        properties: { port: { type: "string", maxLength: 128 }, when: { type: "string", "x-weft-kind": "cel" } },
        required: ["port", "when"],
        additionalProperties: false,
      },
    };
    expect(shapeOf(cases)).toEqual({
      kind: "list",
      maxItems: 64,
      item: {
        kind: "record",
        fields: [
          { name: "port", required: true, description: "", shape: { kind: "text", maxLength: 128 } },
          { name: "when", required: true, description: "", shape: { kind: "cel", list: false } },
        ],
      },
    });
  });

  it("reads the engine's kinds before the JSON types", () => {
    expect(shapeOf({ type: "string", "x-weft-kind": "celList" })).toEqual({ kind: "cel", list: true });
    expect(shapeOf({ type: "string", "x-weft-kind": "template" })).toEqual({ kind: "template" });
    expect(shapeOf({ type: "string", "x-weft-kind": "channel" })).toEqual({ kind: "channel" });
    expect(shapeOf({ type: "string", maxLength: 128, "x-weft-kind": "knowledgeBase" })).toEqual({ kind: "knowledgeBase" });
    expect(shapeOf({ type: "object", "x-weft-kind": "graph" })).toEqual({ kind: "graph" });
    expect(shapeOf({ "x-weft-kind": "jsonSchema" })).toEqual({ kind: "json" });
  });

  it("offers enums as choices, numbers with their bounds, labels as a list of texts", () => {
    expect(shapeOf({ type: "string", enum: ["first", "all"] })).toEqual({ kind: "choice", values: ["first", "all"] });
    expect(shapeOf({ type: "integer", minimum: 1, maximum: 64 })).toEqual({ kind: "number", integer: true, minimum: 1, maximum: 64 });
    expect(shapeOf({ type: "array", items: { type: "string", maxLength: 128 } })).toEqual({ kind: "list", maxItems: null, item: { kind: "text", maxLength: 128 } });
  });

  it("falls back to JSON for what has no simple form: alternatives, open objects, nested records", () => {
    expect(shapeOf({ type: "object", properties: { documentId: { anyOf: [{ type: "string" }, { type: "array" }] } }, additionalProperties: false })).toEqual({ kind: "json" });
    expect(shapeOf({ type: "object" })).toEqual({ kind: "json" });
    expect(shapeOf({ anyOf: [{ type: "string" }, { type: "number" }] })).toEqual({ kind: "json" });
    expect(shapeOf({ type: "array", items: { type: "array" } })).toEqual({ kind: "json" });
  });
});
