import { describe, expect, it } from "vitest";
import { describeNodeType, describeNodeTypes } from "../registry/node-type-catalogue.js";
import { pipelineRegistry } from "./built-in-node-types.js";

const SEED = ["input", "generation", "ensemble", "validation", "output"];
const PIPELINE = ["llm", "switch", "classify", "grade", "join", "template", "map", "subgraph"];
const TOOLS = ["retrieve", "expand", "rerank", "web_search", "guardrail", "cache_lookup", "cache_store", "history"];
const PEOPLE = ["human"];
const NEW = [...PIPELINE, ...TOOLS, ...PEOPLE];

describe("pipelineRegistry", () => {
  it("registers the seed types, then the pipeline types of SPEC-V2 §3, the tool types of §6 and the human type of SPEC-V3 §2", () => {
    expect(pipelineRegistry.types()).toEqual([...SEED, ...NEW]);
  });

  it("keeps the seed types' pre-node lists, and grows their post-node lists by every new type", () => {
    expect(pipelineRegistry.require("generation").accepts).toEqual(["input"]);
    expect(pipelineRegistry.require("validation").feeds).toEqual(["validation", "ensemble", "output", ...NEW]);
    expect(pipelineRegistry.allowsPair("switch", "generation")).toBe(false);
    expect(pipelineRegistry.allowsPair("generation", "switch")).toBe(true);
  });

  it("lets the output and every new type take any type but output", () => {
    expect(pipelineRegistry.require("output").accepts).toEqual(["input", "generation", "ensemble", "validation", ...NEW]);
    for (const type of NEW) {
      expect(pipelineRegistry.require(type).accepts, type).toEqual([...SEED.slice(0, 4), ...NEW]);
      expect(pipelineRegistry.allowsPair("output", type), type).toBe(false);
    }
  });

  it("gives routers their ports: cases or labels plus default, grade's verdicts, guardrail's and cache lookup's outcomes, a human node's actions", () => {
    const route = { id: "r", type: "switch", config: { cases: [{ port: "a", when: "true" }, { port: "b", when: "false" }] } };
    expect(pipelineRegistry.portsOf(route)).toEqual(["a", "b", "default"]);
    expect(pipelineRegistry.portsOf({ id: "c", type: "classify", config: { labels: ["x"] } })).toEqual(["x", "default"]);
    expect(pipelineRegistry.portsOf({ id: "g", type: "grade" })).toEqual(["pass", "retry", "fail"]);
    expect(pipelineRegistry.portsOf({ id: "l", type: "llm" })).toEqual(["out"]);
    expect(pipelineRegistry.portsOf({ id: "k", type: "guardrail" })).toEqual(["pass", "blocked"]);
    expect(pipelineRegistry.portsOf({ id: "h", type: "cache_lookup" })).toEqual(["hit", "miss"]);
    expect(pipelineRegistry.portsOf({ id: "p", type: "human" })).toEqual(["approve", "reject"]);
    expect(pipelineRegistry.portsOf({ id: "p", type: "human", config: { actions: [{ id: "publish" }] } })).toEqual(["publish"]);
  });
});

describe("describeNodeType", () => {
  it("describes each type's fields as JSON Schema, marking CEL, graphs and channels", () => {
    const map = describeNodeType(pipelineRegistry.require("map"));
    const properties = map.configSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.items).toMatchObject({ type: "string", "x-weft-kind": "celList", default: "input" });
    expect(properties.body).toMatchObject({ "x-weft-kind": "graph" });
    expect(properties.writes).toMatchObject({ "x-weft-kind": "channel" });
    expect(map.configSchema.required).toEqual(["body"]);
    expect(map).toMatchObject({ component: "MapNode", composite: true, router: false, ports: ["out"], inDegree: { min: 1, max: 1 } });
  });

  it("marks every field that names a knowledge base, so an editor can offer the knowledge bases by name", () => {
    const fieldsNamingKnowledgeBases = describeNodeTypes(pipelineRegistry).flatMap((type) =>
      Object.entries((type.configSchema.properties ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([, schema]) => schema["x-weft-kind"] === "knowledgeBase")
        .map(([name, schema]) => `${type.type}.${name}:${String(schema.type)}`),
    );
    expect(fieldsNamingKnowledgeBases.sort()).toEqual(["expand.knowledgeBase:string", "llm.knowledgeBase:string", "retrieve.knowledgeBase:string"]);
  });

  it("says where a router's extra ports come from", () => {
    const switchType = describeNodeType(pipelineRegistry.require("switch"));
    expect(switchType).toMatchObject({ router: true, ports: ["default"], portsField: "cases" });
    const cases = (switchType.configSchema.properties as Record<string, { items: { properties: Record<string, unknown> } }>).cases;
    expect(cases?.items.properties.when).toMatchObject({ "x-weft-kind": "cel" });
  });

  it("describes every registered type, the seed ones as the seed profile", () => {
    const all = describeNodeTypes(pipelineRegistry);
    expect(all.filter((type) => type.profile === "seed").map((type) => type.type)).toEqual(SEED);
    expect(all.find((type) => type.type === "input")).toMatchObject({ outDegree: { min: 1, max: null }, count: { min: 1, max: null }, attributes: ["content"] });
    expect(all.find((type) => type.type === "llm")?.attributes).toEqual(["provider", "model", "params", "prompt"]);
  });
});
