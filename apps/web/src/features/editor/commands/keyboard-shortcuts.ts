/**
 * The editor's keyboard shortcuts, as data: the key handler reads them and the help overlay lists them,
 * so the two cannot disagree. `mod` is Ctrl (⌘ on a Mac).
 */

export type ShortcutCommand = "undo" | "redo" | "selectAll" | "duplicate" | "find" | "help" | "tidyUp";

export interface Shortcut {
  command: ShortcutCommand;
  key: string;
  mod: boolean;
  shift: boolean;
  alt?: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { command: "undo", key: "z", mod: true, shift: false },
  { command: "redo", key: "z", mod: true, shift: true },
  { command: "redo", key: "y", mod: true, shift: false },
  { command: "selectAll", key: "a", mod: true, shift: false },
  { command: "duplicate", key: "d", mod: true, shift: false },
  { command: "find", key: "k", mod: true, shift: false },
  { command: "tidyUp", key: "l", mod: true, shift: true },
  { command: "help", key: "?", mod: false, shift: true },
];

/** Keys handled by the browser's own events or by the canvas, listed in the help overlay too. */
export const OTHER_KEYS = ["copy", "paste", "delete", "boxSelect", "multiSelect", "escape"] as const;

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command a key press asks for, if any. */
export function commandOf(press: KeyPress): ShortcutCommand | null {
  const mod = press.ctrlKey || press.metaKey;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  const found = SHORTCUTS.find((shortcut) => shortcut.key === key && shortcut.mod === mod && (shortcut.key === "?" || shortcut.shift === press.shiftKey) && Boolean(shortcut.alt) === press.altKey);
  return found?.command ?? null;
}

/** Whether keys typed here belong to a text field (a form, a dialog), not to the canvas. */
export function isTextTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest("input, textarea, select, [contenteditable='true'], [role='dialog']") !== null;
}

/** How a shortcut is written on screen: `Ctrl+Shift+Z`. */
export function shortcutLabel(shortcut: Shortcut): string {
  return [shortcut.mod ? "Ctrl" : "", shortcut.shift && shortcut.key !== "?" ? "Shift" : "", shortcut.alt ? "Alt" : "", shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key].filter(Boolean).join("+");
}
