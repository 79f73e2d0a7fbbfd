import { describe, expect, it } from "vitest";
import { SEED_NODE_TYPES } from "../model/workflow.js";
import { describeNodeType, describeNodeTypes } from "../registry/node-type-catalogue.js";
import { builtInRegistry } from "./built-in-node-types.js";

const SEED = ["input", "generation", "ensemble", "validation", "output"];
const PIPELINE = ["llm", "switch", "classify", "grade", "join", "template", "map", "subgraph"];
const TOOLS = ["retrieve", "expand", "rerank", "web_search", "guardrail", "cache_lookup", "cache_store", "history"];
const PEOPLE = ["human"];
const AGENTS = ["agent", "tool", "http"];
const NEW = [...PIPELINE, ...TOOLS, ...PEOPLE, ...AGENTS];

/** SPEC §2, written out as the pairs it allows among the seed types. */
const SEED_PAIRS = new Set([
  "input→generation", "input→ensemble", "input→validation", "input→output",
  "generation→ensemble", "generation→validation", "generation→output",
  "ensemble→ensemble", "ensemble→validation", "ensemble→output",
  "validation→validation", "validation→ensemble", "validation→output",
]);

describe("the seed types in builtInRegistry", () => {
  it("allow exactly the type pairs of SPEC §2's table among themselves", () => {
    for (const source of SEED) {
      for (const target of SEED) {
        const pair = `${source}→${target}`;
        expect({ pair, allowed: builtInRegistry.allowsPair(source, target) }).toEqual({ pair, allowed: SEED_PAIRS.has(pair) });
      }
    }
  });

  it("bound degrees as the spec does: only ensembles take several pre-nodes, only inputs feed several", () => {
    const degrees = Object.fromEntries(SEED.map((type) => builtInRegistry.require(type)).map((s) => [s.type, [s.inDegree.min, s.inDegree.max, s.outDegree.min, s.outDegree.max]]));
    expect(degrees).toEqual({
      input: [0, 0, 1, Infinity],
      generation: [1, 1, 1, 1],
      ensemble: [1, Infinity, 1, 1],
      validation: [1, 1, 1, 1],
      output: [1, 1, 0, 0],
    });
  });

  it("require at least one input and exactly one output", () => {
    expect(builtInRegistry.require("input").count).toEqual({ min: 1, max: Infinity, code: "INPUT_REQUIRED" });
    expect(builtInRegistry.require("output").count).toEqual({ min: 1, max: 1, code: "OUTPUT_UNIQUE" });
  });

  it("mark the model types and only them as using a model", () => {
    expect(SEED.filter((type) => builtInRegistry.require(type).usesModel)).toEqual(["generation", "ensemble", "validation"]);
  });

  it("refuse a model on a text node and content on a model node", () => {
    expect(builtInRegistry.require("input").attributes.safeParse({ content: "hi" }).success).toBe(true);
    expect(builtInRegistry.require("input").attributes.safeParse({ model: "echo" }).success).toBe(false);
    expect(builtInRegistry.require("generation").attributes.safeParse({ provider: "offline", model: "echo" }).success).toBe(true);
    expect(builtInRegistry.require("generation").attributes.safeParse({ content: "hi" }).success).toBe(false);
  });

  it("are the types of the frozen v1 format, and no other type is", () => {
    expect(builtInRegistry.types().filter((type) => builtInRegistry.isSeedType(type))).toEqual([...SEED_NODE_TYPES]);
  });
});

describe("builtInRegistry", () => {
  it("registers the seed types, then the pipeline types of SPEC-V2 §3, the tool types of §6, the human type of SPEC-V3 §2 and its agent, tool and http types of §3", () => {
    expect(builtInRegistry.types()).toEqual([...SEED, ...NEW]);
  });

  it("keeps the seed types' pre-node lists, and grows their post-node lists by every new type", () => {
    expect(builtInRegistry.require("generation").accepts).toEqual(["input"]);
    expect(builtInRegistry.require("validation").feeds).toEqual(["validation", "ensemble", "output", ...NEW]);
    expect(builtInRegistry.allowsPair("switch", "generation")).toBe(false);
    expect(builtInRegistry.allowsPair("generation", "switch")).toBe(true);
  });

  it("lets the output and every new type take any type but output", () => {
    expect(builtInRegistry.require("output").accepts).toEqual(["input", "generation", "ensemble", "validation", ...NEW]);
    for (const type of NEW) {
      expect(builtInRegistry.require(type).accepts, type).toEqual([...SEED.slice(0, 4), ...NEW]);
      expect(builtInRegistry.allowsPair("output", type), type).toBe(false);
    }
  });

  it("gives routers their ports: cases or labels plus default, grade's verdicts, guardrail's and cache lookup's outcomes, a human node's actions", () => {
    const route = { id: "r", type: "switch", config: { cases: [{ port: "a", when: "true" }, { port: "b", when: "false" }] } };
    expect(builtInRegistry.portsOf(route)).toEqual(["a", "b", "default"]);
    expect(builtInRegistry.portsOf({ id: "c", type: "classify", config: { labels: ["x"] } })).toEqual(["x", "default"]);
    expect(builtInRegistry.portsOf({ id: "g", type: "grade" })).toEqual(["pass", "retry", "fail"]);
    expect(builtInRegistry.portsOf({ id: "l", type: "llm" })).toEqual(["out"]);
    expect(builtInRegistry.portsOf({ id: "k", type: "guardrail" })).toEqual(["pass", "blocked"]);
    expect(builtInRegistry.portsOf({ id: "h", type: "cache_lookup" })).toEqual(["hit", "miss"]);
    expect(builtInRegistry.portsOf({ id: "p", type: "human" })).toEqual(["approve", "reject"]);
    expect(builtInRegistry.portsOf({ id: "p", type: "human", config: { actions: [{ id: "publish" }] } })).toEqual(["publish"]);
  });
});

describe("describeNodeType", () => {
  it("describes each type's fields as JSON Schema, marking CEL, graphs and channels", () => {
    const map = describeNodeType(builtInRegistry.require("map"));
    const properties = map.configSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.items).toMatchObject({ type: "string", "x-weft-kind": "celList", default: "input" });
    expect(properties.body).toMatchObject({ "x-weft-kind": "graph" });
    expect(properties.writes).toMatchObject({ "x-weft-kind": "channel" });
    expect(map.configSchema.required).toEqual(["body"]);
    expect(map).toMatchObject({ component: "MapNode", composite: true, router: false, ports: ["out"], inDegree: { min: 1, max: 1 } });
  });

  it("marks every field that names a knowledge base, so an editor can offer the knowledge bases by name", () => {
    const fieldsNamingKnowledgeBases = describeNodeTypes(builtInRegistry).flatMap((type) =>
      Object.entries((type.configSchema.properties ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([, schema]) => schema["x-weft-kind"] === "knowledgeBase")
        .map(([name, schema]) => `${type.type}.${name}:${String(schema.type)}`),
    );
    expect(fieldsNamingKnowledgeBases.sort()).toEqual(["expand.knowledgeBase:string", "llm.knowledgeBase:string", "retrieve.knowledgeBase:string"]);
  });

  it("says where a router's extra ports come from", () => {
    const switchType = describeNodeType(builtInRegistry.require("switch"));
    expect(switchType).toMatchObject({ router: true, ports: ["default"], portsField: "cases" });
    const cases = (switchType.configSchema.properties as Record<string, { items: { properties: Record<string, unknown> } }>).cases;
    expect(cases?.items.properties.when).toMatchObject({ "x-weft-kind": "cel" });
  });

  it("describes every registered type, the seed ones as the seed profile", () => {
    const all = describeNodeTypes(builtInRegistry);
    expect(all.filter((type) => type.profile === "seed").map((type) => type.type)).toEqual(SEED);
    expect(all.find((type) => type.type === "input")).toMatchObject({ outDegree: { min: 1, max: null }, count: { min: 1, max: null }, attributes: ["content"] });
    expect(all.find((type) => type.type === "llm")?.attributes).toEqual(["provider", "model", "params", "prompt"]);
  });
});
