import { describe, expect, it } from "vitest";
import { createBuiltInRegistry } from "@weft/engine";
import { checkNodeAttributes, checkNodeId, checkPosition, checkSettings } from "./workflow-input.validation.js";
import { checkParamsLimits } from "./params-limits.js";
import { WORKFLOW_INPUT_LIMITS } from "./workflow-input.limits.js";
import { highestEdgeNumber, nextEdgeNumber, nextNodeId } from "./node-id.js";

const registry = createBuiltInRegistry();

describe("workflow input checks", () => {
  it("requires a non-blank name on create and refuses clearing it on update", () => {
    expect(checkSettings({ name: "  " }, true).map((error) => error.code)).toEqual(["VALIDATION_FAILED"]);
    expect(checkSettings({ name: null }, false)[0]?.path).toEqual(["input", "name"]);
    expect(checkSettings({ description: "x" }, false)).toEqual([]);
  });

  it("reports an over-long prompt as LIMIT_EXCEEDED with its path", () => {
    const long = "x".repeat(WORKFLOW_INPUT_LIMITS.maxPromptLength + 1);
    const [error] = checkSettings({ name: "a", prompts: { ensemble: long } }, true);
    expect(error).toMatchObject({ code: "LIMIT_EXCEEDED", path: ["input", "prompts", "ensemble"] });
  });

  it("refuses a model attribute on a text node through the registry's attribute schema", () => {
    const errors = checkNodeAttributes(registry, "input", { content: "hi", model: "echo" }, ["input"]);
    expect(errors.map((error) => error.code)).toEqual(["VALIDATION_FAILED"]);
  });

  it("names the unknown node type and the known ones", () => {
    const [error] = checkNodeAttributes(registry, "router", {}, ["input"]);
    expect(error?.code).toBe("UNKNOWN_NODE_TYPE");
    expect(error?.message).toContain("generation");
  });

  it("bounds params depth and size", () => {
    // An object directly under params is at depth 1; four levels are allowed, five are not.
    expect(checkParamsLimits({ a: { b: { c: { d: { e: 1 } } } } }, ["params"])).toEqual([]);
    expect(checkParamsLimits({ a: { b: { c: { d: { e: {} } } } } }, ["params"])[0]?.code).toBe("LIMIT_EXCEEDED");
    const wide = Object.fromEntries(Array.from({ length: 65 }, (_, k) => [`k${k}`, k]));
    expect(checkParamsLimits(wide, ["params"])[0]?.code).toBe("LIMIT_EXCEEDED");
  });

  it("refuses non-finite and far-away positions", () => {
    expect(checkPosition({ x: Number.NaN, y: 0 }, ["p"])[0]?.path).toEqual(["p", "x"]);
    expect(checkPosition({ x: 0, y: 1e9 }, ["p"])[0]?.path).toEqual(["p", "y"]);
    expect(checkPosition({ x: -5, y: 5 }, ["p"])).toEqual([]);
  });

  it("refuses empty, padded and over-long node ids", () => {
    expect(checkNodeId("", ["id"])).toHaveLength(1);
    expect(checkNodeId(" g1", ["id"])).toHaveLength(1);
    expect(checkNodeId("g".repeat(129), ["id"])[0]?.code).toBe("LIMIT_EXCEEDED");
    expect(checkNodeId("my node", ["id"])).toEqual([]);
  });
});

describe("server-chosen ids", () => {
  it("numbers nodes after the highest number used with their type", () => {
    expect(nextNodeId("generation", ["generation-1", "generation-7", "ensemble-9", "generation-x"])).toBe("generation-8");
    expect(nextNodeId("input", [])).toBe("input-1");
  });

  it("numbers edges past the highest the workflow ever had, and at least at their position", () => {
    expect(nextEdgeNumber(2, 3)).toBe(3);
    expect(nextEdgeNumber(9, 3)).toBe(10);
    // e1..e5 existed, e4 and e5 were deleted: the next edge is e6, not e4 again.
    expect(nextEdgeNumber(5, 4)).toBe(6);
    expect(nextEdgeNumber(0, 4)).toBe(4);
    expect(highestEdgeNumber(["e2", "e12", "x", "e1a"])).toBe(12);
    expect(highestEdgeNumber([])).toBe(0);
  });
});
