import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "@weft/engine";
import type { WorkflowSettingsDraft } from "../panels/workflow-settings.type";
import { additionEntry, emptyHistory, findEdgeId, HISTORY_LIMIT, moveEntry, recordEdit, removalEntry, settingsEntry, takeRedo, takeUndo, updateEntry } from "./edit-history";

const node = (id: string, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({ id, type: "template", position: { x: 0, y: 0 }, ...extra });
const edge = (id: string, source: string, target: string, extra: Partial<WorkflowEdge> = {}): WorkflowEdge => ({ id, source, target, ...extra });

describe("edit history", () => {
  it("undoes the latest edit first and redoes it again; a new edit forgets what could be redone", () => {
    const first = additionEntry([node("a")], [], "add a");
    const second = additionEntry([node("b")], [], "add b");
    let history = recordEdit(recordEdit(emptyHistory, first), second);
    const undone = takeUndo(history)!;
    expect(undone.entry).toBe(second);
    history = undone.next;
    expect(takeRedo(history)!.entry).toBe(second);
    history = recordEdit(history, additionEntry([node("c")], [], "add c"));
    expect(takeRedo(history)).toBeNull();
    expect(history.past.map((entry) => entry.label)).toEqual(["add a", "add c"]);
  });

  it("keeps at most HISTORY_LIMIT edits", () => {
    let history = emptyHistory;
    for (let n = 0; n < HISTORY_LIMIT + 5; n += 1) history = recordEdit(history, additionEntry([node(`n${n}`)], [], `add ${n}`));
    expect(history.past).toHaveLength(HISTORY_LIMIT);
    expect(history.past[0]!.label).toBe("add 5");
  });

  it("undoes a deletion by adding the nodes back with every edge that went with them", () => {
    //   in ─▶ route ─ yes ─▶ out
    //           ▲       │
    //           └ again ┘ (loop edge, kept as a loop edge)
    const graph = {
      nodes: [node("in"), node("route", { config: { cases: [] } }), node("out")],
      edges: [edge("e1", "in", "route"), edge("e2", "route", "out", { sourcePort: "yes" }), edge("e3", "route", "route", { sourcePort: "retry", loop: "again" })],
    };
    const entry = removalEntry(graph, ["route"], [], "delete");
    expect(entry.undo).toEqual({
      kind: "add",
      nodes: [graph.nodes[1]],
      edges: [
        { source: "in", target: "route" },
        { source: "route", target: "out", sourcePort: "yes" },
        { source: "route", target: "route", sourcePort: "retry", loop: "again" },
      ],
    });
    expect(entry.redo).toMatchObject({ kind: "remove", nodeIds: ["route"] });
  });

  it("finds an edge added again under its new id by what it connects", () => {
    const edges = [edge("e9", "a", "b", { sourcePort: "yes" }), edge("e10", "a", "b")];
    expect(findEdgeId(edges, { source: "a", target: "b" })).toBe("e10");
    expect(findEdgeId(edges, { source: "a", target: "b", sourcePort: "yes" })).toBe("e9");
    expect(findEdgeId(edges, { source: "b", target: "a" })).toBeNull();
  });

  it("records only the nodes a drag moved, and moves them back on undo", () => {
    const entry = moveEntry(
      [
        { id: "a", x: 0, y: 0 },
        { id: "b", x: 10, y: 10 },
      ],
      [
        { id: "a", x: 50, y: 0 },
        { id: "b", x: 10, y: 10 },
      ],
      "move",
    )!;
    expect(entry.undo).toEqual({ kind: "move", moves: [{ id: "a", x: 0, y: 0 }] });
    expect(entry.redo).toEqual({ kind: "move", moves: [{ id: "a", x: 50, y: 0 }] });
    expect(moveEntry([{ id: "a", x: 1, y: 1 }], [{ id: "a", x: 1, y: 1 }], "move")).toBeNull();
  });

  it("undoes a save by writing back what each saved field held, null for what was absent", () => {
    const before = node("t", { config: { template: "{input}" } });
    const entry = updateEntry(before, { config: { template: "Hello {input}" }, prompt: "p" }, "save");
    expect(entry.undo).toEqual({ kind: "update", nodeId: "t", state: { config: { template: "{input}" }, prompt: null } });
    expect(entry.redo).toEqual({ kind: "update", nodeId: "t", state: { config: { template: "Hello {input}" }, prompt: "p" } });
  });

  it("undoes a paste that declared loops by removing its nodes and then those loops, and redoes it declaring them again", () => {
    const loops = [{ id: "regen-2", max: 3, exit: "pass" }];
    const edges = [{ source: "draft-2", target: "check-2" }, { source: "check-2", target: "draft-2", sourcePort: "retry", loop: "regen-2" }];
    const entry = additionEntry([node("draft-2"), node("check-2")], edges, "paste", loops);
    expect(entry.undo).toEqual({ kind: "remove", nodeIds: ["draft-2", "check-2"], edges, loops: ["regen-2"] });
    expect(entry.redo).toEqual({ kind: "add", nodes: [node("draft-2"), node("check-2")], edges, loops });
    expect(additionEntry([node("a")], [], "add").undo).toEqual({ kind: "remove", nodeIds: ["a"], edges: [] });
  });

  it("undoes a save of the workflow settings by saving the settings it replaced, and redoes it", () => {
    const draft = (name: string): WorkflowSettingsDraft => ({ name, description: "", prompts: { generation: "{input_data}" }, outputFormat: "JSON", knowledgeBase: null, intensity: "LOW" });
    const saved = { workflow: draft("Answers"), pipeline: { loops: [], state: {}, limits: { maxInvocations: 50 } } };
    const entry = settingsEntry(saved, { workflow: draft("Better answers") }, "settings");
    expect(entry.undo).toEqual({ kind: "settings", state: { workflow: draft("Answers") } });
    expect(entry.redo).toEqual({ kind: "settings", state: { workflow: draft("Better answers") } });
    let history = recordEdit(emptyHistory, entry);
    const undone = takeUndo(history)!;
    expect(undone.entry.undo).toEqual(entry.undo);
    history = undone.next;
    expect(takeRedo(history)!.entry.redo).toEqual(entry.redo);
  });

  it("undoes a save of loops, state or limits by saving back only that part", () => {
    const saved = {
      workflow: { name: "w", description: "", prompts: {}, outputFormat: "", knowledgeBase: null, intensity: "LOW" as const },
      pipeline: { loops: [{ id: "regen", max: 3, exit: "pass" }], state: { drafts: { reducer: "append" as const } }, limits: {} },
    };
    const entry = settingsEntry(saved, { pipeline: { loops: [{ id: "regen", max: 5, exit: "pass" }] } }, "loops");
    expect(entry.undo).toEqual({ kind: "settings", state: { pipeline: { loops: [{ id: "regen", max: 3, exit: "pass" }] } } });
    const limits = settingsEntry(saved, { pipeline: { limits: { maxInvocations: 20 } } }, "limits");
    expect(limits.undo).toEqual({ kind: "settings", state: { pipeline: { limits: {} } } });
  });
});
