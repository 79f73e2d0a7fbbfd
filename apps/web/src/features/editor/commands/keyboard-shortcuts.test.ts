import { describe, expect, it } from "vitest";
import { commandOf, isTextTarget, shortcutLabel, SHORTCUTS } from "./keyboard-shortcuts";

const press = (key: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...extra });

describe("keyboard shortcuts", () => {
  it("reads Ctrl+Z as undo and Ctrl+Shift+Z or Ctrl+Y as redo, on a Mac's ⌘ too", () => {
    expect(commandOf(press("z", { ctrlKey: true }))).toBe("undo");
    expect(commandOf(press("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(commandOf(press("y", { metaKey: true }))).toBe("redo");
    expect(commandOf(press("z"))).toBeNull();
  });

  it("reads Ctrl+A, Ctrl+D, Ctrl+K and ? as their commands", () => {
    expect(commandOf(press("a", { ctrlKey: true }))).toBe("selectAll");
    expect(commandOf(press("d", { ctrlKey: true }))).toBe("duplicate");
    expect(commandOf(press("k", { ctrlKey: true }))).toBe("find");
    expect(commandOf(press("?", { shiftKey: true }))).toBe("help");
  });

  it("leaves keys typed into a text field alone", () => {
    const input = document.createElement("input");
    const dialog = document.createElement("div");
    dialog.setAttribute("role", "dialog");
    const inside = document.createElement("button");
    dialog.append(inside);
    expect(isTextTarget(input)).toBe(true);
    expect(isTextTarget(inside)).toBe(true);
    expect(isTextTarget(document.body)).toBe(false);
  });

  it("writes every shortcut the way the help overlay shows it", () => {
    expect(SHORTCUTS.map(shortcutLabel)).toContain("Ctrl+Shift+Z");
    expect(SHORTCUTS.map(shortcutLabel)).toContain("?");
  });
});
