import { describe, expect, it } from "vitest";
import { liveEvent } from "./live-event.test-helpers";
import { headerFeedback, loopOfInvocation, loopsByHeader, nodeBadges } from "./pipeline-events";
import { projectRun, type LiveEvent } from "./run-projection";

const labels = { items: (done: number, total: number) => `${done}/${total} items`, cacheHit: (similarity: number | null) => `hit ${similarity}` };

describe("a pipeline run as the live view shows it", () => {
  //   q ──▶ lookup (cache_lookup) ──miss──▶ draft (llm) ──▶ check (grade) ──pass──▶ out
  //                                           ▲── retry, loop regen max 3 ──┘
  //          lookup ──hit──▶ out (dead)
  it("marks the branch taken, the loop iteration, and the cache's answer", () => {
    let seq = 0;
    const e = (type: string, payload: Record<string, unknown>, nodeId: string | null = null): LiveEvent => liveEvent(++seq, type, payload, nodeId);
    const state = projectRun([
      e("RUN_STARTED", { nodeIds: ["q", "lookup", "draft", "check", "out"] }),
      e("NODE_STARTED", { invocation: "" }, "lookup"),
      e("CACHE_MISS", { invocation: "" }, "lookup"),
      e("BRANCH_TAKEN", { invocation: "", ports: ["miss"], skipped: ["hit"] }, "lookup"),
      e("NODE_STARTED", { invocation: "" }, "draft"),
      e("NODE_STARTED", { invocation: "" }, "check"),
      e("BRANCH_TAKEN", { invocation: "", ports: ["retry"], skipped: ["pass", "fail"] }, "check"),
      e("LOOP_ITERATION", { loopId: "regen", iteration: 2, max: 3, feedback: "cite the source" }),
      e("NODE_STARTED", { invocation: "regen#2" }, "draft"),
    ]);
    expect(state.nodes.lookup?.branch).toEqual({ ports: ["miss"], skipped: ["hit"] });
    expect(state.nodes.lookup?.cache).toEqual({ hit: false, similarity: null });
    expect(state.loops.regen).toEqual({ iteration: 2, max: 3, feedback: "cite the source", seq: 8 });
    expect(nodeBadges(state, "draft", labels)).toEqual(["2/3"]);
    expect(nodeBadges(state, "check", labels)).toEqual([]);
  });

  it("counts a map's items as they complete, and shows a cache hit", () => {
    let seq = 0;
    const e = (type: string, payload: Record<string, unknown>, nodeId: string | null = null): LiveEvent => liveEvent(++seq, type, payload, nodeId);
    const state = projectRun([
      e("RUN_STARTED", { nodeIds: ["perQuestion", "lookup"] }),
      e("MAP_STARTED", { invocation: "", items: 3 }, "perQuestion"),
      e("MAP_ITEM_COMPLETED", { invocation: "", index: 2 }, "perQuestion"),
      e("MAP_ITEM_COMPLETED", { invocation: "", index: 0 }, "perQuestion"),
      e("CACHE_HIT", { invocation: "", similarity: 0.97 }, "lookup"),
    ]);
    expect(nodeBadges(state, "perQuestion", labels)).toEqual(["2/3 items"]);
    expect(nodeBadges(state, "lookup", labels)).toEqual(["hit 0.97"]);
  });

  //   draft (llm) ──▶ check (grade) ──pass──▶ out
  //     ▲── retry, loop regen max 3 ──┘
  //   (a second grader, lint, sends back to draft too, as loop polish)
  it("gives a loop header the feedback of the latest iteration, and none before or without one", () => {
    const headed = loopsByHeader([
      { target: "check", loop: null },
      { target: "draft", loop: "regen" },
      { target: "draft", loop: "polish" },
      { target: "draft", loop: "regen" },
    ]);
    expect(headed).toEqual(new Map([["draft", ["regen", "polish"]]]));
    const draftLoops = headed.get("draft") ?? [];
    let seq = 0;
    const e = (type: string, payload: Record<string, unknown>, nodeId: string | null = null): LiveEvent => liveEvent(++seq, type, payload, nodeId);
    const started = [e("RUN_STARTED", { nodeIds: ["draft", "check", "lint", "out"] }), e("NODE_STARTED", { invocation: "" }, "draft")];
    expect(headerFeedback(projectRun(started), draftLoops)).toBeNull();

    const second = [...started, e("LOOP_ITERATION", { loopId: "regen", iteration: 2, max: 3, feedback: "cite the source" }), e("NODE_STARTED", { invocation: "regen#2" }, "draft")];
    expect(headerFeedback(projectRun(second), draftLoops)).toBe("cite the source");

    const third = [...second, e("LOOP_ITERATION", { loopId: "polish", iteration: 2, max: 2, feedback: "shorter sentences" })];
    expect(headerFeedback(projectRun(third), draftLoops)).toBe("shorter sentences");

    const fourth = [...third, e("LOOP_ITERATION", { loopId: "regen", iteration: 3, max: 3, feedback: "" })];
    expect(headerFeedback(projectRun(fourth), draftLoops)).toBeNull();
    expect(headerFeedback(projectRun(third), [])).toBeNull();
  });

  it("reads the innermost loop of a nested invocation", () => {
    expect(loopOfInvocation("perQuestion[1]/refine#3")).toEqual({ loopId: "refine", iteration: 3 });
    expect(loopOfInvocation("regen#2/perQuestion[0]")).toEqual({ loopId: "regen", iteration: 2 });
    expect(loopOfInvocation("")).toBeNull();
  });
});
