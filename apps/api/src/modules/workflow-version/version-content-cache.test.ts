import { BUILT_IN_NODE_TYPES, NodeTypeRegistry } from "@weft/engine";
import { describe, expect, test, vi } from "vitest";
import { VersionContentCache } from "./version-content-cache.js";

/** in ──▶ out, named after its version. */
const documentOf = (name: string) => ({
  format: "weft.workflow/v2",
  name,
  nodes: [
    { id: "in", type: "input" },
    { id: "out", type: "output" },
  ],
  edges: [{ source: "in", target: "out" }],
});

const registry = new NodeTypeRegistry(BUILT_IN_NODE_TYPES);

/** A loadMany over stored documents, recording which ids each call asked for. */
function storedDocuments(...names: string[]) {
  const calls: string[][] = [];
  const loadMany = async (missing: string[]) => {
    calls.push(missing);
    return new Map(missing.filter((id) => names.includes(id)).map((id) => [id, documentOf(id)]));
  };
  return { calls, loadMany };
}

describe("the version content cache", () => {
  test("reads the versions it has not parsed in one load, and gives the ones it has as they are", async () => {
    const cache = new VersionContentCache(registry);
    const first = await cache.get("a", async () => documentOf("a"));
    const { calls, loadMany } = storedDocuments("a", "b", "c");

    const contents = await cache.getMany(["a", "b", "c", "b"], loadMany);

    expect(calls).toEqual([["b", "c"]]);
    expect([...contents.keys()]).toEqual(["a", "b", "c"]);
    expect(contents.get("a")).toBe(first);
    expect(contents.get("c")!.workflow.name).toBe("c");
    // All cached now: no load at all.
    await cache.getMany(["c", "a"], loadMany);
    expect(calls).toHaveLength(1);
  });

  test("a version the load does not find is an error, not a missing tool", async () => {
    const cache = new VersionContentCache(registry);
    await expect(cache.getMany(["a", "gone"], storedDocuments("a").loadMany)).rejects.toThrow("workflow version gone does not exist");
  });

  test("past its capacity it drops the least recently used version, whichever way it was read", async () => {
    const cache = new VersionContentCache(registry, 2);
    await cache.getMany(["a", "b"], storedDocuments("a", "b").loadMany);
    await cache.get("a", async () => documentOf("a"));
    await cache.getMany(["c"], storedDocuments("c").loadMany);
    const load = vi.fn(async () => documentOf("b"));
    await cache.get("b", load);
    expect(load).toHaveBeenCalledTimes(1);
    const reloadA = vi.fn(async () => documentOf("a"));
    await cache.get("a", reloadA);
    expect(reloadA).toHaveBeenCalledTimes(1);
  });
});
