import { describe, expect, it } from "vitest";
import { BULK_LOAD_MIN_CHUNKS, estimateChunks, shouldSuspendIndex } from "./bulk-load-policy.js";

describe("bulk-load policy", () => {
  it("suspends the index for a large load into an empty or small collection", () => {
    expect(shouldSuspendIndex(BULK_LOAD_MIN_CHUNKS, 0)).toBe(true);
    expect(shouldSuspendIndex(1000, 2000)).toBe(true);
  });

  it("keeps the index for small additions and for collections much larger than the load", () => {
    expect(shouldSuspendIndex(BULK_LOAD_MIN_CHUNKS - 1, 0)).toBe(false);
    expect(shouldSuspendIndex(1000, 2001)).toBe(false);
  });

  it("estimates chunks from the length and the step between chunk starts", () => {
    expect(estimateChunks(6800, 800, 120)).toBe(10);
    expect(estimateChunks(1, 800, 120)).toBe(1);
  });
});
