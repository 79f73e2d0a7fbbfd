import { describe, expect, it } from "vitest";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { body as graphBody, pipeline } from "../testing/pipeline-builder.js";
import { threadChannels, threadQuestion, threadStateOf, workflowUsesThread } from "./thread-workflow.js";

describe("workflows on threads", () => {
  it("the thread channels are those declared with scope thread", () => {
    const workflow = pipeline().state({ seen: { reducer: "append", scope: "thread" }, scratch: { reducer: "replace" } }).build();
    expect(threadChannels(workflow)).toEqual(["seen"]);
    expect(threadStateOf({ seen: [1], scratch: "x" }, workflow)).toEqual({ seen: [1] });
    expect(threadStateOf(undefined, workflow)).toEqual({});
  });

  it("a workflow uses a thread when it has a thread channel or a history node, in a body too", () => {
    const plain = pipeline().input("q").output("out").edges("q>out").build();
    expect(workflowUsesThread(plain, builtInRegistry)).toBe(false);
    expect(workflowUsesThread({ ...plain, state: { seen: { reducer: "append", scope: "thread" } } }, builtInRegistry)).toBe(true);
    /**  q ─► each (map: item ─► past (history) ─► done) ─► out */
    const body = pipeline().input("item").node("past", "history").output("done").edges("item>past", "past>done");
    const nested = pipeline().input("q").node("each", "map", { body: graphBody(body) }).output("out").edges("q>each", "each>out").build();
    expect(workflowUsesThread(nested, builtInRegistry)).toBe(true);
  });

  it("the question of a turn is the input nodes' contents, supplied ones first", () => {
    const workflow = pipeline().input("a", "stored a").input("b", "stored b").node("j", "join").output("out").edges("a>j", "b>j", "j>out").build();
    expect(threadQuestion({ workflow, inputs: { b: "asked b" } }, builtInRegistry)).toBe("stored a\nasked b");
  });
});
