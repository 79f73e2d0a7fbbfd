import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useMoveSaver } from "./use-move-saver";

describe("useMoveSaver", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("saves a burst of moves once, keeping each node's last position", () => {
    const save = vi.fn();
    const { result } = renderHook(() => useMoveSaver(save, 500));
    act(() => {
      result.current([{ id: "a", x: 1, y: 1 }]);
      result.current([{ id: "a", x: 2, y: 2 }, { id: "b", x: 5, y: 5 }]);
    });
    expect(save).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(500));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith([{ id: "a", x: 2, y: 2 }, { id: "b", x: 5, y: 5 }]);
  });

  it("flushes pending moves when the editor closes", () => {
    const save = vi.fn();
    const { result, unmount } = renderHook(() => useMoveSaver(save, 500));
    act(() => result.current([{ id: "a", x: 3, y: 4 }]));
    unmount();
    expect(save).toHaveBeenCalledWith([{ id: "a", x: 3, y: 4 }]);
  });
});
