import { describe, expect, it } from "vitest";
import { payloadVersion, remoteChangeAction, type VersionBook } from "./remote-change";

const book = (base: number, own: number[] = [], inFlight = 0): VersionBook => ({ base, own: new Set(own), inFlight });
const change = (version: number, deleted = false) => ({ version, deleted });

describe("remoteChangeAction", () => {
  it("ignores versions the editor was drawn from or older", () => {
    expect(remoteChangeAction(book(7), change(7), false)).toBe("ignore");
    expect(remoteChangeAction(book(7), change(3), false)).toBe("ignore");
  });

  it("ignores the versions its own mutations returned", () => {
    expect(remoteChangeAction(book(7, [8, 9]), change(9), false)).toBe("ignore");
  });

  it("redraws for a newer version it did not produce, even between two of its own", () => {
    expect(remoteChangeAction(book(7), change(8), false)).toBe("reload");
    expect(remoteChangeAction(book(7, [8, 10]), change(9), false)).toBe("reload");
  });

  it("waits while one of its mutations is unanswered, since the version may be that mutation's", () => {
    expect(remoteChangeAction(book(7, [], 1), change(8), false)).toBe("wait");
    expect(remoteChangeAction(book(7, [8], 0), change(8), false)).toBe("ignore");
  });

  it("asks instead of redrawing when the settings form holds unsaved text", () => {
    expect(remoteChangeAction(book(7), change(8), true)).toBe("notice");
  });

  it("reports a deletion whatever the version", () => {
    expect(remoteChangeAction(book(7, [8]), change(8, true), false)).toBe("deleted");
  });
});

describe("payloadVersion", () => {
  it("reads the workflow version from a mutation payload, or null when there is none", () => {
    expect(payloadVersion({ addEdge: { edge: { id: "e2" }, workflow: { id: "w", version: 12 }, errors: [] } })).toBe(12);
    expect(payloadVersion({ addEdge: { edge: null, workflow: null, errors: [{ code: "CYCLE" }] } })).toBeNull();
    expect(payloadVersion(undefined)).toBeNull();
  });
});
