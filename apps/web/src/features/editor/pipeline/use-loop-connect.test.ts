import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ConnectResult } from "../graph/use-graph-edits";
import { useLoopConnect } from "./use-loop-connect";

const newLoop = { kind: "loop", source: "check", target: "draft", sourcePort: "retry", loop: "loop", declared: false } as const;
const regen = { id: "regen", max: 3, exit: "pass" };
const settings = { loops: [regen], state: {}, limits: {} };

function setup(answer: ConnectResult) {
  const connect = vi.fn(async () => answer);
  const adopt = vi.fn();
  const hook = renderHook(() => useLoopConnect({ connect, adopt }));
  return { connect, adopt, hook };
}

describe("closing a loop from a router's port", () => {
  it("declares a new loop and its first edge in one request, then takes the settings the server answered", async () => {
    const { connect, adopt, hook } = setup({ added: true, settings });
    act(() => hook.result.current.request(newLoop));
    expect(hook.result.current.pending).toEqual(newLoop);
    expect(connect).not.toHaveBeenCalled();
    await act(() => hook.result.current.confirm(regen));
    expect(connect).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledWith({ source: "check", target: "draft", sourcePort: "retry", loop: "regen", declareLoop: regen });
    expect(adopt).toHaveBeenCalledWith(settings);
    expect(hook.result.current.pending).toBeNull();
  });

  it("keeps the dialog open and the settings as they were when the server refuses the loop", async () => {
    const { adopt, hook } = setup({ added: false });
    act(() => hook.result.current.request(newLoop));
    await act(() => hook.result.current.confirm({ id: "regen", max: 500, exit: null }));
    expect(adopt).not.toHaveBeenCalled();
    expect(hook.result.current.pending).toEqual(newLoop);
    expect(hook.result.current.busy).toBe(false);
  });

  it("adds an edge of a loop already declared at once, without asking", () => {
    const { connect, hook } = setup({ added: true, settings: null });
    act(() => hook.result.current.request({ ...newLoop, loop: "regen", declared: true }));
    expect(hook.result.current.pending).toBeNull();
    expect(connect).toHaveBeenCalledWith(expect.objectContaining({ source: "check", target: "draft", loop: "regen" }));
    expect(connect.mock.calls[0]).not.toContainEqual(expect.objectContaining({ declareLoop: expect.anything() }));
  });
});
