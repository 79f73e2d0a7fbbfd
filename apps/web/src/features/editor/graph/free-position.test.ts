import { describe, expect, it } from "vitest";
import { findFreePosition } from "./free-position";

describe("findFreePosition", () => {
  it("keeps the wanted spot when it is free", () => {
    expect(findFreePosition([{ x: 0, y: 0 }], { x: 500, y: 0 })).toEqual({ x: 500, y: 0 });
  });

  it("moves below a node that covers the wanted spot", () => {
    expect(findFreePosition([{ x: 100, y: 100 }], { x: 120, y: 110 })).toEqual({ x: 120, y: 244 });
  });

  it("skips every covered row", () => {
    const taken = [{ x: 0, y: 0 }, { x: 0, y: 134 }];
    expect(findFreePosition(taken, { x: 0, y: 0 })).toEqual({ x: 0, y: 268 });
  });
});
