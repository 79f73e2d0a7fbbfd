import { describe, expect, it } from "vitest";
import { chunkUuid, dimensionFromDescription, describeDimension, metadataPropertyName, weaviateCollectionName } from "./weaviate-schema.mapper.js";

describe("weaviateCollectionName", () => {
  it("maps any name to a valid, distinct Weaviate class name", () => {
    const names = ["kb_1", "KB_1", "kb-1", "지식 베이스", "a".repeat(500)].map(weaviateCollectionName);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^[A-Z][_0-9A-Za-z]{0,254}$/);
  });

  it("is stable across calls", () => {
    expect(weaviateCollectionName("kb_abc")).toBe(weaviateCollectionName("kb_abc"));
  });
});

describe("chunkUuid", () => {
  it("derives a stable version-5-shaped UUID from the chunk id", () => {
    const uuid = chunkUuid("doc-1#0");
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(chunkUuid("doc-1#0")).toBe(uuid);
    expect(chunkUuid("doc-1#1")).not.toBe(uuid);
  });
});

describe("metadata property names", () => {
  it("keep simple keys readable and make other keys valid and distinct", () => {
    expect(metadataPropertyName("lang")).toBe("m_lang");
    const odd = ["my-key", "my_key", "키"].map(metadataPropertyName);
    expect(new Set(odd).size).toBe(3);
    for (const name of odd) expect(name).toMatch(/^[_A-Za-z][_0-9A-Za-z]*$/);
  });
});

describe("dimension in the collection description", () => {
  it("round-trips", () => {
    expect(dimensionFromDescription(describeDimension(1024))).toBe(1024);
    expect(dimensionFromDescription("someone else's collection")).toBeUndefined();
  });
});
