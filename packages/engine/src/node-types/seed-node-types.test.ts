import { describe, expect, it } from "vitest";
import { defaultRegistry } from "./seed-node-types.js";

/** SPEC §2, written out as the pairs it allows. */
const ALLOWED = new Set([
  "input→generation", "input→ensemble", "input→validation", "input→output",
  "generation→ensemble", "generation→validation", "generation→output",
  "ensemble→ensemble", "ensemble→validation", "ensemble→output",
  "validation→validation", "validation→ensemble", "validation→output",
]);
const TYPES = ["input", "generation", "ensemble", "validation", "output"];

describe("defaultRegistry", () => {
  it("registers the five node types of the spec", () => {
    expect(defaultRegistry.types()).toEqual(TYPES);
  });

  it("allows exactly the type pairs of the spec's table", () => {
    for (const source of TYPES) {
      for (const target of TYPES) {
        const pair = `${source}→${target}`;
        expect({ pair, allowed: defaultRegistry.allowsPair(source, target) }).toEqual({ pair, allowed: ALLOWED.has(pair) });
      }
    }
  });

  it("bounds degrees as the spec does: only ensembles take several pre-nodes, only inputs feed several", () => {
    const degrees = Object.fromEntries(defaultRegistry.specs().map((s) => [s.type, [s.inDegree.min, s.inDegree.max, s.outDegree.min, s.outDegree.max]]));
    expect(degrees).toEqual({
      input: [0, 0, 1, Infinity],
      generation: [1, 1, 1, 1],
      ensemble: [1, Infinity, 1, 1],
      validation: [1, 1, 1, 1],
      output: [1, 1, 0, 0],
    });
  });

  it("requires at least one input and exactly one output", () => {
    expect(defaultRegistry.require("input").count).toEqual({ min: 1, max: Infinity, code: "INPUT_REQUIRED" });
    expect(defaultRegistry.require("output").count).toEqual({ min: 1, max: 1, code: "OUTPUT_UNIQUE" });
  });

  it("marks the model types and only them as using a model", () => {
    expect(defaultRegistry.specs().filter((s) => s.usesModel).map((s) => s.type)).toEqual(["generation", "ensemble", "validation"]);
  });

  it("refuses a model on a text node and content on a model node", () => {
    expect(defaultRegistry.require("input").attributes.safeParse({ content: "hi" }).success).toBe(true);
    expect(defaultRegistry.require("input").attributes.safeParse({ model: "echo" }).success).toBe(false);
    expect(defaultRegistry.require("generation").attributes.safeParse({ provider: "offline", model: "echo" }).success).toBe(true);
    expect(defaultRegistry.require("generation").attributes.safeParse({ content: "hi" }).success).toBe(false);
  });
});
