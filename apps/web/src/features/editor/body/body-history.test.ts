import { describe, expect, it } from "vitest";
import { BODY_HISTORY_LIMIT, commitState, startTimeline, stepBack, stepForward } from "./body-history";

describe("body timeline", () => {
  it("undoes edits back to the body as it was opened and redoes them in order", () => {
    let timeline = commitState(commitState(startTimeline("opened"), "added a node"), "connected it");
    const back = stepBack(timeline)!;
    expect(back.state).toBe("added a node");
    timeline = back.timeline;
    expect(stepBack(timeline)!.state).toBe("opened");
    expect(stepBack(stepBack(timeline)!.timeline)).toBeNull();
    const forward = stepForward(timeline)!;
    expect(forward.state).toBe("connected it");
    expect(stepForward(forward.timeline)).toBeNull();
  });

  it("drops what was undone when a new edit is made", () => {
    const undone = stepBack(commitState(commitState(startTimeline("opened"), "a"), "b"))!.timeline;
    const edited = commitState(undone, "c");
    expect(edited.states).toEqual(["opened", "a", "c"]);
    expect(stepForward(edited)).toBeNull();
  });

  it("records no step for an edit that changed nothing", () => {
    const timeline = commitState(startTimeline("opened"), "a");
    expect(commitState(timeline, "a")).toBe(timeline);
  });

  it("keeps the latest states up to its limit", () => {
    let timeline = startTimeline("0");
    for (let i = 1; i <= BODY_HISTORY_LIMIT + 5; i += 1) timeline = commitState(timeline, String(i));
    expect(timeline.states).toHaveLength(BODY_HISTORY_LIMIT);
    expect(timeline.states[timeline.index]).toBe(String(BODY_HISTORY_LIMIT + 5));
    expect(timeline.states[0]).toBe("6");
  });
});
