import { describe, expect, it } from "vitest";
import { nodeTypeCatalogue, type NodeTypeInfo } from "./node-type-catalogue";

const info = (type: string, component: string, usesModel: boolean, inMax: number | null, outMax: number | null): NodeTypeInfo => ({
  type,
  label: type,
  description: "",
  component,
  profile: "seed",
  usesModel,
  attributes: usesModel ? ["provider", "model", "params", "prompt"] : ["content"],
  ports: outMax === 0 ? [] : ["out"],
  portsField: null,
  router: false,
  composite: false,
  fields: [],
  defaultConfig: null,
  inDegree: { min: 0, max: inMax },
  outDegree: { min: 0, max: outMax },
});

describe("nodeTypeCatalogue", () => {
  // Names unknown to the UI: every answer comes from the description, none from the name.
  const catalogue = nodeTypeCatalogue([info("question", "TextNode", false, 0, null), info("think", "ModelNode", true, 1, 1), info("answer", "TextNode", false, 1, 0)]);

  it("answers from the registry's description, not from type names", () => {
    expect(catalogue.isSource("question")).toBe(true);
    expect(catalogue.isSink("answer")).toBe(true);
    expect(catalogue.isSource("think") || catalogue.isSink("think")).toBe(false);
    expect(catalogue.usesModel("think")).toBe(true);
    expect(catalogue.isText("question") && catalogue.isText("answer") && !catalogue.isText("think")).toBe(true);
    expect(catalogue.types.map((type) => type.type)).toEqual(["question", "think", "answer"]);
    expect(catalogue.takes("think", "prompt") && !catalogue.takes("question", "prompt")).toBe(true);
  });

  it("treats a type it does not know as none of these", () => {
    expect([catalogue.isSource("x"), catalogue.isSink("x"), catalogue.usesModel("x"), catalogue.isText("x")]).toEqual([false, false, false, false]);
  });
});
