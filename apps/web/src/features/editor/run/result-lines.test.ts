import { describe, expect, it } from "vitest";
import { liveEvent } from "../../runs/live/live-event.test-helpers";
import { buildResultLines, groupMapItems, mapItemOf } from "./result-lines";

describe("buildResultLines", () => {
  it("prints a router's choice once, whether its description comes before or after BRANCH_TAKEN", () => {
    const lines = buildResultLines([
      liveEvent(1, "NODE_DESCRIPTION", { description: 'took "yes"', invocation: "" }, "route"),
      liveEvent(2, "BRANCH_TAKEN", { ports: ["yes"], skipped: ["no"], invocation: "" }, "route"),
      liveEvent(3, "NODE_COMPLETED", { description: 'took "yes"', invocation: "" }, "route"),
      liveEvent(4, "BRANCH_TAKEN", { ports: ["a"], invocation: "" }, "other"),
      liveEvent(5, "NODE_COMPLETED", { description: 'took "a"', invocation: "" }, "other"),
    ]);
    expect(lines.map((line) => [line.kind, "nodeId" in line ? line.nodeId : null])).toEqual([
      ["branch", "route"],
      ["branch", "other"],
    ]);
  });

  it("prints a node's description once per execution: each loop iteration and map item has its own", () => {
    const lines = buildResultLines([
      liveEvent(1, "NODE_COMPLETED", { description: "first", invocation: "regen#1" }, "draft"),
      liveEvent(2, "NODE_COMPLETED", { description: "second", invocation: "regen#2" }, "draft"),
      liveEvent(3, "NODE_COMPLETED", { description: "again", invocation: "regen#2" }, "draft"),
    ]);
    expect(lines.map((line) => (line.kind === "description" ? line.text : line.kind))).toEqual(["first", "second"]);
  });
});

describe("groupMapItems", () => {
  it("gathers a map's lines per item, in item order, where its first item printed", () => {
    //   perQuestion[1] and perQuestion[0] run at once; item 1's nested loop belongs to item 1
    const lines = buildResultLines([
      liveEvent(1, "MAP_STARTED", { items: 2, invocation: "" }, "perQuestion"),
      liveEvent(2, "NODE_COMPLETED", { description: "b", invocation: "perQuestion[1]" }, "answer"),
      liveEvent(3, "NODE_COMPLETED", { description: "a", invocation: "perQuestion[0]" }, "answer"),
      liveEvent(4, "NODE_COMPLETED", { description: "b again", invocation: "perQuestion[1]/regen#2" }, "answer"),
      liveEvent(5, "RUN_COMPLETED", { result: "done" }),
    ]);
    const entries = groupMapItems(lines);
    expect(entries.map((entry) => entry.kind)).toEqual(["line", "items", "line"]);
    const group = entries[1]!;
    if (group.kind !== "items") throw new Error("expected the items");
    expect(group.nodeId).toBe("perQuestion");
    expect(group.items.map((item) => [item.index, item.lines.map((line) => (line.kind === "description" ? line.text : ""))])).toEqual([
      [0, ["a"]],
      [1, ["b", "b again"]],
    ]);
  });

  it("reads which map item an invocation belongs to", () => {
    expect(mapItemOf("perQuestion[3]/regen#2")).toEqual({ nodeId: "perQuestion", index: 3 });
    expect(mapItemOf("regen#2")).toBeNull();
    expect(mapItemOf("")).toBeNull();
  });
});
