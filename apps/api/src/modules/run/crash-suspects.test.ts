import { describe, expect, test } from "vitest";
import { afterCrashes, exhaustedMessage, inFlight, NO_CRASHES, readCrashWatch, type StoredEvent } from "./crash-suspects.js";

const started = (nodeId: string, invocation = "", nodeType = "generation"): StoredEvent => ({ type: "NODE_STARTED", nodeId, payload: { nodeId, nodeType, invocation } });
const ended = (type: string, nodeId: string, invocation = ""): StoredEvent => ({ type, nodeId, payload: { nodeId, invocation } });
const run = (type: "RUN_STARTED" | "RUN_RESUMED"): StoredEvent => ({ type, nodeId: null, payload: {} });
const isComposite = (type: string) => type === "map" || type === "subgraph";

describe("what was in flight at a crash", () => {
  test("the last attempt's starts without an end; earlier attempts' open starts do not count", () => {
    //  attempt 1: in, g1 done; g2 and g3 started, then the worker died
    //  attempt 2: g2 started again, then the worker died
    const events = [
      run("RUN_STARTED"), started("in", "", "input"), ended("NODE_COMPLETED", "in"), started("g1"), ended("NODE_COMPLETED", "g1"),
      started("g2"), started("g3"),
      run("RUN_RESUMED"), started("g2"),
    ];
    expect(inFlight(events.slice(0, 7), isComposite)).toEqual([{ nodeId: "g2", invocation: "" }, { nodeId: "g3", invocation: "" }]);
    expect(inFlight(events, isComposite)).toEqual([{ nodeId: "g2", invocation: "" }]);
  });

  test("invocations are told apart, failures and skips end them, and a map's own start does not count (its items do)", () => {
    const events = [
      run("RUN_STARTED"), started("per", "", "map"), started("draft", "per[0]"), started("draft", "per[1]"), ended("NODE_FAILED", "draft", "per[0]"),
      started("check", "regen#2"), ended("NODE_SKIPPED", "check", "regen#2"),
    ];
    expect(inFlight(events, isComposite)).toEqual([{ nodeId: "draft", invocation: "per[1]" }]);
  });
});

describe("the crash watch", () => {
  const poison = [{ nodeId: "boom", invocation: "" }];
  const other = [{ nodeId: "g1", invocation: "" }];

  test("the same invocation in flight at each crash counts one crash after another", () => {
    let watch = afterCrashes(NO_CRASHES, 1, [...poison, ...other]);
    expect(watch).toEqual({ examined: 1, crashes: 1, suspects: [...poison, ...other] });
    watch = afterCrashes(watch, 2, poison);
    expect(watch).toEqual({ examined: 2, crashes: 2, suspects: poison });
    watch = afterCrashes(watch, 3, poison);
    expect(watch).toEqual({ examined: 3, crashes: 3, suspects: poison });
  });

  test("a crash with something else in flight starts a new count from it; one with nothing in flight clears the suspects", () => {
    const once = afterCrashes(NO_CRASHES, 1, poison);
    expect(afterCrashes(once, 2, other)).toEqual({ examined: 2, crashes: 1, suspects: other });
    expect(afterCrashes(once, 2, [])).toEqual({ examined: 2, crashes: 0, suspects: [] });
    expect(afterCrashes(afterCrashes(once, 2, []), 3, poison)).toEqual({ examined: 3, crashes: 1, suspects: poison });
  });

  test("a handover is no crash, and attempts that died before looking executed nothing", () => {
    const once = afterCrashes(NO_CRASHES, 1, poison);
    expect(afterCrashes(once, 1, other)).toBe(once);
    expect(afterCrashes(once, 3, poison)).toEqual({ examined: 3, crashes: 0, suspects: [] });
  });

  test("a takeover from a worker still alive (its lock lapsed) is no crash: the count neither grows nor starts again", () => {
    const twice = afterCrashes(afterCrashes(NO_CRASHES, 1, poison), 2, poison);
    expect(afterCrashes(twice, 3, poison, true)).toEqual({ examined: 3, crashes: 2, suspects: poison });
    expect(afterCrashes(afterCrashes(twice, 3, other, true), 4, poison)).toEqual({ examined: 4, crashes: 3, suspects: poison });
    expect(afterCrashes(NO_CRASHES, 1, poison, true)).toEqual({ examined: 1, crashes: 0, suspects: [] });
  });

  test("reads back what it stored, and anything else as no crash", () => {
    const watch = { examined: 2, crashes: 2, suspects: poison };
    expect(readCrashWatch(JSON.parse(JSON.stringify(watch)))).toEqual(watch);
    for (const stored of [null, 3, "x", { examined: "1" }]) expect(readCrashWatch(stored)).toEqual(NO_CRASHES);
  });

  test("the failure names the invocation and the crashes", () => {
    expect(exhaustedMessage({ examined: 3, crashes: 3, suspects: [{ nodeId: "boom", invocation: "per[2]" }] })).toBe(
      'node "boom" (invocation "per[2]") was executing at each of the last 3 crashes of the run\'s worker; the run is not tried again',
    );
  });
});
