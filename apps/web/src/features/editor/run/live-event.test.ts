import { describe, expect, it } from "vitest";
import { toLiveEvent } from "./live-event";

describe("toLiveEvent", () => {
  it("keeps the common fields and the payload of a runEvents item", () => {
    const raw = { seq: 3, type: "NODE_DESCRIPTION", at: "2026-11-21T10:00:00.000Z", nodeId: "g1", payload: { nodeId: "g1", description: "drafted" } };
    expect(toLiveEvent(raw)).toEqual({ ...raw });
  });

  it("gives an event without a usable seq a seq the sequencer rejects", () => {
    expect(toLiveEvent({ type: "RUN_STARTED", payload: null })).toMatchObject({ seq: -1, nodeId: null, payload: {} });
  });
});
