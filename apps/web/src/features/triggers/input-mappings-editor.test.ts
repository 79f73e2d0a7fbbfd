import { describe, expect, it } from "vitest";
import { inputsToMappings, mappingsToInputs } from "./input-mappings-editor";

describe("trigger input mappings", () => {
  it("sends the non-empty mappings in the workflow's input order, trimmed", () => {
    expect(mappingsToInputs(["topic", "tone", "extra"], { tone: " query.tone ", topic: "body.topic", extra: "   " })).toEqual([
      { nodeId: "topic", from: "body.topic" },
      { nodeId: "tone", from: "query.tone" },
    ]);
  });

  it("reads stored mappings back by node id, so editing one keeps the others", () => {
    const mappings = inputsToMappings([{ nodeId: "topic", from: "body.topic" }, { nodeId: "gone", from: "body.x" }]);
    expect(mappingsToInputs(["topic", "gone"], { ...mappings, gone: "" })).toEqual([{ nodeId: "topic", from: "body.topic" }]);
  });
});
