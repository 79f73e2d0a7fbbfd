import { describe, expect, test } from "vitest";
import { decodeNodeRunCursor, encodeNodeRunCursor, nodeRunPage } from "./node-run-page.js";

const at = new Date("2026-11-27T10:00:00.123Z");

describe("node run pages", () => {
  test("a cursor carries the start time (or none), the node id and the invocation, and nothing else decodes", () => {
    for (const key of [
      { startedAt: at, nodeKey: "g1", invocation: "" },
      { startedAt: null, nodeKey: "per_question", invocation: "perQuestion[3]/regen#2" },
    ]) {
      expect(decodeNodeRunCursor(encodeNodeRunCursor(key))).toEqual(key);
    }
    for (const bad of ["", "x", Buffer.from("[1,2]").toString("base64url"), Buffer.from('["not a date","a",""]').toString("base64url"), Buffer.from('[null,"a",3]').toString("base64url")]) {
      expect(decodeNodeRunCursor(bad), bad).toBeNull();
    }
  });

  test("without arguments a page is the run's first 1,000 node runs", () => {
    expect(nodeRunPage("r", {})).toEqual({ where: { runId: "r" }, take: 1000 });
  });

  test("filters by node and by invocation prefix, with LIKE's wildcards taken literally", () => {
    expect(nodeRunPage("r", { nodeId: "per_q", invocationPrefix: "a_b%c\\", first: 5 })).toEqual({
      where: { AND: [{ runId: "r" }, { nodeKey: "per_q" }, { invocation: { startsWith: "a\\_b\\%c\\\\" } }] },
      take: 5,
    });
  });

  test("after a started node run come the later ones, the same time's later keys, and the ones not started", () => {
    const { where } = nodeRunPage("r", { after: encodeNodeRunCursor({ startedAt: at, nodeKey: "g1", invocation: "x" }) });
    const later = { OR: [{ nodeKey: { gt: "g1" } }, { nodeKey: "g1", invocation: { gt: "x" } }] };
    expect(where).toEqual({ AND: [{ runId: "r" }, { OR: [{ startedAt: { gt: at } }, { AND: [{ startedAt: at }, later] }, { startedAt: null }] }] });
    const notStarted = nodeRunPage("r", { after: encodeNodeRunCursor({ startedAt: null, nodeKey: "g1", invocation: "x" }) });
    expect(notStarted.where).toEqual({ AND: [{ runId: "r" }, { AND: [{ startedAt: null }, later] }] });
  });

  test("bad page arguments are refused, not clamped, naming the argument", () => {
    for (const [filter, argument] of [
      [{ first: 0 }, "first"],
      [{ first: 1001 }, "first"],
      [{ after: "not a cursor" }, "after"],
    ] as const) {
      expect(() => nodeRunPage("r", filter)).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT", extensions: expect.objectContaining({ path: [argument] }) }));
    }
  });
});
