import { describe, expect, it } from "vitest";
import { AGENT_RUN_EVENT_TYPES, HUMAN_RUN_EVENT_TYPES, PIPELINE_RUN_EVENT_TYPES, REPLAYED_EVENT_TYPES, RUN_EVENT_TYPES, TERMINAL_EVENT_TYPES } from "./run-event.js";

describe("the event types", () => {
  it("list seed 000's events in their order, then those of pipelines, of people in the loop and of agents", () => {
    expect(RUN_EVENT_TYPES).toEqual([
      "RUN_STARTED", "RUN_RESUMED", "NODE_STARTED", "NODE_TOKEN", "NODE_DESCRIPTION", "NODE_COMPLETED",
      "NODE_FAILED", "NODE_SKIPPED", "WARNING", "RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED",
    ]);
    expect(PIPELINE_RUN_EVENT_TYPES).toEqual(["BRANCH_TAKEN", "LOOP_ITERATION", "LOOP_EXHAUSTED", "MAP_STARTED", "MAP_ITEM_COMPLETED", "STATE_UPDATED", "CACHE_HIT", "CACHE_MISS"]);
    expect(HUMAN_RUN_EVENT_TYPES).toEqual(["NODE_WAITING", "HUMAN_TASK_COMPLETED", "RUN_WAITING"]);
    expect(AGENT_RUN_EVENT_TYPES).toEqual(["AGENT_STEP", "TOOL_CALLED", "TOOL_RESULT"]);
  });

  it("replay on resumption only what belongs to an invocation's history, and end a run with one of three", () => {
    expect([...REPLAYED_EVENT_TYPES]).toEqual([
      "NODE_COMPLETED", "NODE_FAILED", "NODE_SKIPPED", "BRANCH_TAKEN", "LOOP_ITERATION", "LOOP_EXHAUSTED",
      "MAP_STARTED", "MAP_ITEM_COMPLETED", "STATE_UPDATED", "NODE_WAITING", "HUMAN_TASK_COMPLETED", "AGENT_STEP", "TOOL_CALLED", "TOOL_RESULT",
    ]);
    expect([...TERMINAL_EVENT_TYPES]).toEqual(["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"]);
  });
});
