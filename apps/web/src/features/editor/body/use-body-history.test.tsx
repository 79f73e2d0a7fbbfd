import { act, fireEvent, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useBodyHistory } from "./use-body-history";

/** The hook over a body held in a variable: `edit` changes it and commits, as the canvas does. */
function bodyWithHistory() {
  let body = "opened";
  const restore = vi.fn((state: string) => {
    body = state;
  });
  const hook = renderHook((props: { active: boolean; locked: boolean }) => useBodyHistory({ snapshot: () => body, restore, ...props }), { initialProps: { active: true, locked: false } });
  const edit = (next: string) => {
    body = next;
    act(() => hook.result.current.commit());
  };
  const press = (key: string, shiftKey = false) => act(() => void fireEvent.keyDown(window, { key, ctrlKey: true, shiftKey }));
  return { hook, restore, edit, press };
}

describe("the body canvas' undo and redo", () => {
  it("undoes an edit with Ctrl+Z and redoes it with Ctrl+Shift+Z, saying when the body is back as opened", () => {
    const { hook, restore, edit, press } = bodyWithHistory();
    edit("added a node");
    expect(hook.result.current.canUndo).toBe(true);
    press("z");
    expect(restore).toHaveBeenLastCalledWith("opened", true);
    press("z", true);
    expect(restore).toHaveBeenLastCalledWith("added a node", false);
  });

  it("neither undoes nor offers to while the canvas is read-only (a run holds the workflow), and does again once it is not", () => {
    const { hook, restore, edit, press } = bodyWithHistory();
    edit("added a node");
    hook.rerender({ active: true, locked: true });
    expect(hook.result.current.canUndo).toBe(false);
    press("z");
    act(() => hook.result.current.undo());
    expect(restore).not.toHaveBeenCalled();
    hook.rerender({ active: true, locked: false });
    expect(hook.result.current.canUndo).toBe(true);
    press("z");
    expect(restore).toHaveBeenCalledWith("opened", true);
  });

  it("leaves the keys to a canvas opened over this one", () => {
    const { hook, restore, edit, press } = bodyWithHistory();
    edit("added a node");
    hook.rerender({ active: false, locked: false });
    press("z");
    expect(restore).not.toHaveBeenCalled();
  });
});
